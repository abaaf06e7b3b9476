public class Launch {
    public static void main(String[] args) {
        org.apache.camel.dsl.jbang.core.commands.CamelJBangMain.run(args);
    }
}
