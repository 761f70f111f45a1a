package org.rocshmem.api.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies one child stream line by line: echoes each line with a "[PE r] " prefix and keeps the last lines for
 * {@link PeResult}. One thread per stream, because a child blocks once a pipe buffer is full.
 */
final class OutputPump implements Runnable {
    /** How the JVM's default uncaught-exception handler starts its report: {@code Exception in thread "main" ...}. */
    private static final String UNCAUGHT = "Exception in thread \"";
    private final InputStream source;
    private final String prefix;
    private final PrintStream echo; // null = capture only
    private final int maxLines;
    private final ArrayDeque<String> tail = new ArrayDeque<>();
    private final Thread thread;
    /** What the JVM's default handler reported of the last uncaught exception ("java.lang.X: message"), or null. */
    private volatile String uncaughtException;

    OutputPump(InputStream source, String prefix, PrintStream echo, int maxLines, String threadName) {
        this.source = source;
        this.prefix = prefix;
        this.echo = echo;
        this.maxLines = maxLines;
        this.thread = new Thread(this, threadName);
        this.thread.setDaemon(true); // never keeps the launcher alive
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(source))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (echo != null) {
                    echo.println(prefix + line); // println is synchronized: lines of different PEs never mix
                }
                if (line.startsWith(UNCAUGHT)) {
                    int quote = line.indexOf("\" ", UNCAUGHT.length());
                    uncaughtException = quote < 0 ? null : line.substring(quote + 2);
                }
                synchronized (tail) {
                    if (maxLines > 0) {
                        if (tail.size() == maxLines) {
                            tail.removeFirst();
                        }
                        tail.addLast(line);
                    }
                }
            }
        } catch (IOException e) {
            // Stream closed under us after the process was killed: the output so far is all there is.
        }
    }

    /** Waits for end of stream; bounded, since an orphaned grandchild may hold the pipe open forever. */
    void awaitEnd(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
    }

    /** The last uncaught exception the child's JVM reported on this stream, e.g. "java.lang.X: message"; or null. */
    String uncaughtException() {
        return uncaughtException;
    }

    List<String> capturedLines() {
        synchronized (tail) {
            return new ArrayList<>(tail);
        }
    }
}
