package org.rocshmem.api;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.ref.Cleaner;

/**
 * Reports symmetric buffers that became unreachable without {@code close()}. It never frees them: rocshmem_free
 * is collective, and a garbage collector runs at different times on every PE, so freeing from here would pair
 * up with unrelated collectives on the other PEs. The block stays allocated until finalize frees it.
 */
final class LeakReporter {
    private static final System.Logger LOG = System.getLogger(LeakReporter.class.getName());
    private static final Cleaner CLEANER = Cleaner.create();

    private LeakReporter() {
    }

    static Cleaner.Cleanable watch(Object buffer, Allocation allocation) {
        return CLEANER.register(buffer, () -> {
            if (!allocation.isReleased()) {
                LOG.log(System.Logger.Level.WARNING, "{0} became unreachable without close(); it stays allocated "
                        + "until rocSHMEM is finalized (free is collective, so the GC cannot free it); {1}",
                        allocation.describe(), site(allocation.site));
                debugTrace(LOG, allocation.site);
            }
        });
    }

    /**
     * "creation site of a team split: Caller.method(File.java:12)": the site's message and its first frame outside
     * this package, so a leak report is one line per object. The whole trace is logged at DEBUG
     * ({@link #debugTrace}).
     */
    static String site(Throwable site) {
        for (StackTraceElement frame : site.getStackTrace()) {
            if (!frame.getClassName().startsWith(LeakReporter.class.getPackageName() + ".")
                    || frame.getClassName().lastIndexOf('.') > LeakReporter.class.getPackageName().length()) {
                return site.getMessage() + ": " + frame;
            }
        }
        return site.getMessage() + ": unknown";
    }

    /** The full creation trace of a leaked object, for a debug log level. */
    static void debugTrace(System.Logger log, Throwable site) {
        if (log.isLoggable(System.Logger.Level.DEBUG)) {
            log.log(System.Logger.Level.DEBUG, "created at:\n{0}", stackTrace(site));
        }
    }

    static String stackTrace(Throwable site) {
        StringWriter text = new StringWriter();
        site.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
