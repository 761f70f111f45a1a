package org.rocshmem.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Forms of one operation timed side by side inside every JMH invocation: a block of k calls of each form in turn,
 * the first form rotating between invocations. Each block is timed on the wall clock and on the
 * benchmark thread's CPU clock, with the bytes the thread allocated in it; per measurement iteration the sums go to
 * {@link Measurements#addSplit}, one record per form. Interleaving at this grain makes both forms share every
 * disturbance (a PE descheduled, the peer's activity, the caches), which two trials run one after the other do not.
 */
public final class Split {
    /** k calls of one form. */
    public interface Block {
        void run(int k);
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final String[] forms;
    private final long[] wallNanos;
    private final long[] cpuNanos;
    private final long[] bytes;
    private final long[] calls;
    private String key;
    private int nextFirst;

    public Split(String... forms) {
        this.forms = forms.clone();
        wallNanos = new long[forms.length];
        cpuNanos = new long[forms.length];
        bytes = new long[forms.length];
        calls = new long[forms.length];
    }

    /** At trial setup: the trial's key ({@link Measurements#key}). */
    public void trial(String trialKey) {
        key = trialKey;
        nextFirst = 0;
    }

    public void startIteration() {
        Arrays.fill(wallNanos, 0);
        Arrays.fill(cpuNanos, 0);
        Arrays.fill(bytes, 0);
        Arrays.fill(calls, 0);
    }

    /** k calls of each form, {@code blocks[i]} being form i; the first form rotates every call. */
    public void run(Block[] blocks, int k) {
        int first = nextFirst;
        nextFirst = (nextFirst + 1) % blocks.length;
        for (int i = 0; i < blocks.length; i++) {
            time(blocks, (first + i) % blocks.length, k);
        }
    }

    private void time(Block[] blocks, int form, int k) {
        long allocated = THREADS.getCurrentThreadAllocatedBytes();
        long cpu = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        blocks[form].run(k);
        long end = System.nanoTime();
        cpuNanos[form] += THREADS.getCurrentThreadCpuTime() - cpu;
        bytes[form] += THREADS.getCurrentThreadAllocatedBytes() - allocated;
        wallNanos[form] += end - start;
        calls[form] += k;
    }

    public void endIteration(boolean measuring) {
        if (measuring) {
            for (int f = 0; f < forms.length; f++) {
                Measurements.addSplit(key, forms[f], wallNanos[f], bytes[f], calls[f], cpuNanos[f]);
            }
        }
    }
}
