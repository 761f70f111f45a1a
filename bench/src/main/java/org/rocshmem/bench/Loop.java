package org.rocshmem.bench;

/**
 * {@code k} calls of one operation through one variant. Each variant's loops are separate lambdas, so each loop is
 * its own compiled code with its own profile; the benchmark method pays one interface call per k operations.
 * Returns a combination of the results so nothing is dead code.
 */
@FunctionalInterface
public interface Loop {
    long run(int k);
}
