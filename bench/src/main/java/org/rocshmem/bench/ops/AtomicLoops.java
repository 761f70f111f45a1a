package org.rocshmem.bench.ops;

import static org.rocshmem.global.rocshmem.*;

import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.NativeLoops;

/**
 * The loops of the atomic matrix: for each variant, type and operation a separate lambda, so every row of the
 * report is its own compiled loop. Values keep the word stable: add 1, and with all ones, or/xor with 0,
 * compare_swap with a condition that never holds (the emulator still does the remote compare).
 */
final class AtomicLoops {
    private AtomicLoops() {
    }

    static Loop cInt64(String op, long d, int peer) {
        final long v = valueForInt64(op);
        final long c = -1;
        return switch (op) {
            case "fetch" -> k -> NativeLoops.int64_atomic_fetch(d, peer, k);
            case "set" -> k -> {
                NativeLoops.int64_atomic_set(d, v, peer, k);
                return 0;
            };
            case "swap" -> k -> NativeLoops.int64_atomic_swap(d, v, peer, k);
            case "compare_swap" -> k -> NativeLoops.int64_atomic_compare_swap(d, c, v, peer, k);
            case "inc" -> k -> {
                NativeLoops.int64_atomic_inc(d, peer, k);
                return 0;
            };
            case "fetch_inc" -> k -> NativeLoops.int64_atomic_fetch_inc(d, peer, k);
            case "add" -> k -> {
                NativeLoops.int64_atomic_add(d, v, peer, k);
                return 0;
            };
            case "fetch_add" -> k -> NativeLoops.int64_atomic_fetch_add(d, v, peer, k);
            case "and" -> k -> {
                NativeLoops.int64_atomic_and(d, v, peer, k);
                return 0;
            };
            case "fetch_and" -> k -> NativeLoops.int64_atomic_fetch_and(d, v, peer, k);
            case "or" -> k -> {
                NativeLoops.int64_atomic_or(d, v, peer, k);
                return 0;
            };
            case "fetch_or" -> k -> NativeLoops.int64_atomic_fetch_or(d, v, peer, k);
            case "xor" -> k -> {
                NativeLoops.int64_atomic_xor(d, v, peer, k);
                return 0;
            };
            case "fetch_xor" -> k -> NativeLoops.int64_atomic_fetch_xor(d, v, peer, k);
            default -> throw new IllegalArgumentException("unknown atomic operation " + op);
        };
    }

    static Loop rawInt64(String op, LongPointer d, int peer) {
        final long v = valueForInt64(op);
        final long c = -1;
        return switch (op) {
            case "fetch" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_fetch(d, peer);
                }
                return sum;
            };
            case "set" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int64_atomic_set(d, v, peer);
                }
                return 0;
            };
            case "swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_swap(d, v, peer);
                }
                return sum;
            };
            case "compare_swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_compare_swap(d, c, v, peer);
                }
                return sum;
            };
            case "inc" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int64_atomic_inc(d, peer);
                }
                return 0;
            };
            case "fetch_inc" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_fetch_inc(d, peer);
                }
                return sum;
            };
            case "add" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int64_atomic_add(d, v, peer);
                }
                return 0;
            };
            case "fetch_add" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_fetch_add(d, v, peer);
                }
                return sum;
            };
            case "and" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int64_atomic_and(d, v, peer);
                }
                return 0;
            };
            case "fetch_and" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_fetch_and(d, v, peer);
                }
                return sum;
            };
            case "or" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int64_atomic_or(d, v, peer);
                }
                return 0;
            };
            case "fetch_or" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_fetch_or(d, v, peer);
                }
                return sum;
            };
            case "xor" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int64_atomic_xor(d, v, peer);
                }
                return 0;
            };
            case "fetch_xor" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int64_atomic_fetch_xor(d, v, peer);
                }
                return sum;
            };
            default -> throw new IllegalArgumentException("unknown atomic operation " + op);
        };
    }

    static Loop typedInt64(String op, SymmetricLongs view, int peer) {
        final long v = valueForInt64(op);
        final long c = -1;
        return switch (op) {
            case "fetch" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetch(peer, 0);
                }
                return sum;
            };
            case "set" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicSet(peer, 0, v);
                }
                return 0;
            };
            case "swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicSwap(peer, 0, v);
                }
                return sum;
            };
            case "compare_swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicCompareSwap(peer, 0, c, v);
                }
                return sum;
            };
            case "inc" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicInc(peer, 0);
                }
                return 0;
            };
            case "fetch_inc" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchInc(peer, 0);
                }
                return sum;
            };
            case "add" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicAdd(peer, 0, v);
                }
                return 0;
            };
            case "fetch_add" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchAdd(peer, 0, v);
                }
                return sum;
            };
            case "and" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicAnd(peer, 0, v);
                }
                return 0;
            };
            case "fetch_and" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchAnd(peer, 0, v);
                }
                return sum;
            };
            case "or" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicOr(peer, 0, v);
                }
                return 0;
            };
            case "fetch_or" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchOr(peer, 0, v);
                }
                return sum;
            };
            case "xor" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicXor(peer, 0, v);
                }
                return 0;
            };
            case "fetch_xor" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchXor(peer, 0, v);
                }
                return sum;
            };
            default -> throw new IllegalArgumentException("unknown atomic operation " + op);
        };
    }

    static Loop cInt32(String op, long d, int peer) {
        final int v = valueForInt32(op);
        final int c = -1;
        return switch (op) {
            case "fetch" -> k -> NativeLoops.int32_atomic_fetch(d, peer, k);
            case "set" -> k -> {
                NativeLoops.int32_atomic_set(d, v, peer, k);
                return 0;
            };
            case "swap" -> k -> NativeLoops.int32_atomic_swap(d, v, peer, k);
            case "compare_swap" -> k -> NativeLoops.int32_atomic_compare_swap(d, c, v, peer, k);
            case "inc" -> k -> {
                NativeLoops.int32_atomic_inc(d, peer, k);
                return 0;
            };
            case "fetch_inc" -> k -> NativeLoops.int32_atomic_fetch_inc(d, peer, k);
            case "add" -> k -> {
                NativeLoops.int32_atomic_add(d, v, peer, k);
                return 0;
            };
            case "fetch_add" -> k -> NativeLoops.int32_atomic_fetch_add(d, v, peer, k);
            case "and" -> k -> {
                NativeLoops.int32_atomic_and(d, v, peer, k);
                return 0;
            };
            case "fetch_and" -> k -> NativeLoops.int32_atomic_fetch_and(d, v, peer, k);
            case "or" -> k -> {
                NativeLoops.int32_atomic_or(d, v, peer, k);
                return 0;
            };
            case "fetch_or" -> k -> NativeLoops.int32_atomic_fetch_or(d, v, peer, k);
            case "xor" -> k -> {
                NativeLoops.int32_atomic_xor(d, v, peer, k);
                return 0;
            };
            case "fetch_xor" -> k -> NativeLoops.int32_atomic_fetch_xor(d, v, peer, k);
            default -> throw new IllegalArgumentException("unknown atomic operation " + op);
        };
    }

    static Loop rawInt32(String op, IntPointer d, int peer) {
        final int v = valueForInt32(op);
        final int c = -1;
        return switch (op) {
            case "fetch" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_fetch(d, peer);
                }
                return sum;
            };
            case "set" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int32_atomic_set(d, v, peer);
                }
                return 0;
            };
            case "swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_swap(d, v, peer);
                }
                return sum;
            };
            case "compare_swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_compare_swap(d, c, v, peer);
                }
                return sum;
            };
            case "inc" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int32_atomic_inc(d, peer);
                }
                return 0;
            };
            case "fetch_inc" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_fetch_inc(d, peer);
                }
                return sum;
            };
            case "add" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int32_atomic_add(d, v, peer);
                }
                return 0;
            };
            case "fetch_add" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_fetch_add(d, v, peer);
                }
                return sum;
            };
            case "and" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int32_atomic_and(d, v, peer);
                }
                return 0;
            };
            case "fetch_and" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_fetch_and(d, v, peer);
                }
                return sum;
            };
            case "or" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int32_atomic_or(d, v, peer);
                }
                return 0;
            };
            case "fetch_or" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_fetch_or(d, v, peer);
                }
                return sum;
            };
            case "xor" -> k -> {
                for (int i = 0; i < k; i++) {
                    rocshmem_int32_atomic_xor(d, v, peer);
                }
                return 0;
            };
            case "fetch_xor" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += rocshmem_int32_atomic_fetch_xor(d, v, peer);
                }
                return sum;
            };
            default -> throw new IllegalArgumentException("unknown atomic operation " + op);
        };
    }

    static Loop typedInt32(String op, SymmetricInts view, int peer) {
        final int v = valueForInt32(op);
        final int c = -1;
        return switch (op) {
            case "fetch" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetch(peer, 0);
                }
                return sum;
            };
            case "set" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicSet(peer, 0, v);
                }
                return 0;
            };
            case "swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicSwap(peer, 0, v);
                }
                return sum;
            };
            case "compare_swap" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicCompareSwap(peer, 0, c, v);
                }
                return sum;
            };
            case "inc" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicInc(peer, 0);
                }
                return 0;
            };
            case "fetch_inc" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchInc(peer, 0);
                }
                return sum;
            };
            case "add" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicAdd(peer, 0, v);
                }
                return 0;
            };
            case "fetch_add" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchAdd(peer, 0, v);
                }
                return sum;
            };
            case "and" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicAnd(peer, 0, v);
                }
                return 0;
            };
            case "fetch_and" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchAnd(peer, 0, v);
                }
                return sum;
            };
            case "or" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicOr(peer, 0, v);
                }
                return 0;
            };
            case "fetch_or" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchOr(peer, 0, v);
                }
                return sum;
            };
            case "xor" -> k -> {
                for (int i = 0; i < k; i++) {
                    view.atomicXor(peer, 0, v);
                }
                return 0;
            };
            case "fetch_xor" -> k -> {
                long sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += view.atomicFetchXor(peer, 0, v);
                }
                return sum;
            };
            default -> throw new IllegalArgumentException("unknown atomic operation " + op);
        };
    }

    /** all ones for and (the word keeps its value), 0 for or/xor, 1 otherwise. */
    private static long valueForInt64(String op) {
        return op.endsWith("and") ? -1L : op.endsWith("or") ? 0L : 1L;
    }

    private static int valueForInt32(String op) {
        return op.endsWith("and") ? -1 : op.endsWith("or") ? 0 : 1;
    }
}
