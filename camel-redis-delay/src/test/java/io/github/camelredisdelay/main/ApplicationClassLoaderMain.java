/*
 * Copyright The camel-redis-delay authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.camelredisdelay.main;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an application's main class as an application server runs a web application, or a launcher its plugins: its
 * classes and libraries (Camel's and the component's) come from a class loader of their own, the thread's context class
 * loader, not from the JVM's system class loader. Its first argument is that class path, its second the main class
 * (such as {@link EnvironmentConfiguredMain}); the others go to that class.
 */
public final class ApplicationClassLoaderMain {

    private ApplicationClassLoaderMain() {
    }

    public static void main(String[] args) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : args[0].split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        URLClassLoader application = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(application);
        application.loadClass(args[1]).getMethod("main", String[].class)
                .invoke(null, (Object) List.of(args).subList(2, args.length).toArray(String[]::new));
    }
}
