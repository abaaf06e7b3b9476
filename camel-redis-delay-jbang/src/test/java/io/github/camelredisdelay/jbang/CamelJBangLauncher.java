package io.github.camelredisdelay.jbang;

import org.apache.camel.dsl.jbang.core.commands.CamelJBangMain;

/** The {@code camel} command of Camel JBang, run from its Maven Central jars instead of the jbang launcher. */
public final class CamelJBangLauncher {

    private CamelJBangLauncher() {
    }

    /** Runs {@code camel <args>}, e.g. {@code run orders.yaml --dep=...}. */
    public static void main(String[] args) {
        CamelJBangMain.run(args);
    }
}
