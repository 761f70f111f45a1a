package org.rocshmem.api.launch;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * How the launcher starts each PE JVM: {@code PeMain <main class> <args...>} starts the {@link LauncherWatchdog}
 * (so the PE ends when the launcher dies, whatever kills it) and then runs the program's {@code main} unchanged: an
 * exception out of it ends the thread exactly as if the JVM had started the class itself.
 */
public final class PeMain {
    private PeMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: java ... " + PeMain.class.getName() + " MainClass [args...]");
            System.exit(2);
        }
        LauncherWatchdog.startFromEnvironment();
        Method main = Class.forName(args[0], true, ClassLoader.getSystemClassLoader())
                .getDeclaredMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers())) {
            throw new NoSuchMethodException("main(String[]) of " + args[0] + " is not static");
        }
        main.setAccessible(true); // the java launcher also runs a public main of a package-private class
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
