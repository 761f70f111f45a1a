// The "C-in-JVM" baseline of the Java benchmarks (org.rocshmem.bench.NativeLoops): each function makes
// k calls of one rocSHMEM host function in a plain C++ loop, so a benchmark that calls it once per
// invocation pays one JNI crossing per k library calls. Arguments are raw addresses, as in the typed
// API's shims. Results are summed and returned so no call is dead code.
#ifndef ROCSHMEM_BENCH_LOOPS_H
#define ROCSHMEM_BENCH_LOOPS_H

#include <jni.h>
#include <cstddef>
#include <cstdint>
#include <hip/hip_runtime_api.h>
#include <rocshmem/rocshmem.hpp>

namespace rocshmem_bench {

inline rocshmem::rocshmem_ctx_t& ctx_at(jlong ctx) { return *reinterpret_cast<rocshmem::rocshmem_ctx_t*>(ctx); }
inline rocshmem::rocshmem_team_t team_of(jlong team) { return reinterpret_cast<rocshmem::rocshmem_team_t>(team); }

// ---- JNI cost probes: nothing happens on the C side.
inline void empty() {}
inline void empty_args(jlong, jlong, jlong, jint) {}
inline void empty_pointers(void*, const void*, jlong, jint) {}

// ---- RMA
inline void int64_p(jlong dest, jlong value, jint pe, jint k) {
    auto* d = reinterpret_cast<int64_t*>(dest);
    for (jint i = 0; i < k; ++i) rocshmem::rocshmem_int64_p(d, value, pe);
}
inline jlong int64_g(jlong source, jint pe, jint k) {
    auto* s = reinterpret_cast<const int64_t*>(source);
    int64_t sum = 0;
    for (jint i = 0; i < k; ++i) sum += rocshmem::rocshmem_int64_g(s, pe);
    return sum;
}
inline void putmem(jlong dest, jlong source, jlong bytes, jint pe, jint k) {
    for (jint i = 0; i < k; ++i)
        rocshmem::rocshmem_putmem(reinterpret_cast<void*>(dest), reinterpret_cast<const void*>(source),
                                  static_cast<size_t>(bytes), pe);
}
inline void getmem(jlong dest, jlong source, jlong bytes, jint pe, jint k) {
    for (jint i = 0; i < k; ++i)
        rocshmem::rocshmem_getmem(reinterpret_cast<void*>(dest), reinterpret_cast<const void*>(source),
                                  static_cast<size_t>(bytes), pe);
}
inline void putmem_nbi(jlong dest, jlong source, jlong bytes, jint pe, jint k) {
    for (jint i = 0; i < k; ++i)
        rocshmem::rocshmem_putmem_nbi(reinterpret_cast<void*>(dest), reinterpret_cast<const void*>(source),
                                      static_cast<size_t>(bytes), pe);
}

// ---- atomics: the 14 host operations for one C type (T) under its rocSHMEM name (N).
#define ROCSHMEM_BENCH_ATOMICS(N, T, J)                                                                     \
    inline J N##_atomic_fetch(jlong dest, jint pe, jint k) {                                                \
        T sum = 0;                                                                                          \
        for (jint i = 0; i < k; ++i) sum += rocshmem::rocshmem_##N##_atomic_fetch(reinterpret_cast<T*>(dest), pe); \
        return static_cast<J>(sum);                                                                         \
    }                                                                                                       \
    inline void N##_atomic_set(jlong dest, J value, jint pe, jint k) {                                      \
        for (jint i = 0; i < k; ++i) rocshmem::rocshmem_##N##_atomic_set(reinterpret_cast<T*>(dest), static_cast<T>(value), pe); \
    }                                                                                                       \
    inline J N##_atomic_swap(jlong dest, J value, jint pe, jint k) {                                        \
        T sum = 0;                                                                                          \
        for (jint i = 0; i < k; ++i) sum += rocshmem::rocshmem_##N##_atomic_swap(reinterpret_cast<T*>(dest), static_cast<T>(value), pe); \
        return static_cast<J>(sum);                                                                         \
    }                                                                                                       \
    inline J N##_atomic_compare_swap(jlong dest, J cond, J value, jint pe, jint k) {                        \
        T sum = 0;                                                                                          \
        for (jint i = 0; i < k; ++i)                                                                        \
            sum += rocshmem::rocshmem_##N##_atomic_compare_swap(reinterpret_cast<T*>(dest), static_cast<T>(cond), static_cast<T>(value), pe); \
        return static_cast<J>(sum);                                                                         \
    }                                                                                                       \
    inline void N##_atomic_inc(jlong dest, jint pe, jint k) {                                               \
        for (jint i = 0; i < k; ++i) rocshmem::rocshmem_##N##_atomic_inc(reinterpret_cast<T*>(dest), pe);  \
    }                                                                                                       \
    inline J N##_atomic_fetch_inc(jlong dest, jint pe, jint k) {                                            \
        T sum = 0;                                                                                          \
        for (jint i = 0; i < k; ++i) sum += rocshmem::rocshmem_##N##_atomic_fetch_inc(reinterpret_cast<T*>(dest), pe); \
        return static_cast<J>(sum);                                                                         \
    }                                                                                                       \
    ROCSHMEM_BENCH_ATOMIC_VALUE_OP(N, T, J, atomic_add, atomic_fetch_add)                                   \
    ROCSHMEM_BENCH_ATOMIC_VALUE_OP(N, T, J, atomic_and, atomic_fetch_and)                                   \
    ROCSHMEM_BENCH_ATOMIC_VALUE_OP(N, T, J, atomic_or, atomic_fetch_or)                                     \
    ROCSHMEM_BENCH_ATOMIC_VALUE_OP(N, T, J, atomic_xor, atomic_fetch_xor)

// OP (no result) and FETCH_OP (old value) for add/and/or/xor; spelled out whole because "and", "or"
// and "xor" are C++ operator names, which token pasting does not accept.
#define ROCSHMEM_BENCH_ATOMIC_VALUE_OP(N, T, J, OP, FETCH_OP)                                               \
    inline void N##_##OP(jlong dest, J value, jint pe, jint k) {                                            \
        for (jint i = 0; i < k; ++i) rocshmem::rocshmem_##N##_##OP(reinterpret_cast<T*>(dest), static_cast<T>(value), pe); \
    }                                                                                                       \
    inline J N##_##FETCH_OP(jlong dest, J value, jint pe, jint k) {                                         \
        T sum = 0;                                                                                          \
        for (jint i = 0; i < k; ++i) sum += rocshmem::rocshmem_##N##_##FETCH_OP(reinterpret_cast<T*>(dest), static_cast<T>(value), pe); \
        return static_cast<J>(sum);                                                                         \
    }

ROCSHMEM_BENCH_ATOMICS(int64, int64_t, jlong)
ROCSHMEM_BENCH_ATOMICS(int32, int32_t, jint)

// ---- point-to-point synchronization, ordering and completion
inline void long_wait_until(jlong ivar, jint cmp, jlong value, jint k) {
    for (jint i = 0; i < k; ++i) rocshmem::rocshmem_long_wait_until(reinterpret_cast<long*>(ivar), cmp, value);
}
inline jint long_test(jlong ivar, jint cmp, jlong value, jint k) {
    jint satisfied = 0;
    for (jint i = 0; i < k; ++i) satisfied += rocshmem::rocshmem_long_test(reinterpret_cast<long*>(ivar), cmp, value);
    return satisfied;
}
inline void quiet(jint k) {
    for (jint i = 0; i < k; ++i) rocshmem::rocshmem_quiet();
}
inline void fence(jint k) {
    for (jint i = 0; i < k; ++i) rocshmem::rocshmem_fence();
}

// ---- collectives (every PE makes the same k calls)
inline void barrier_all(jint k) {
    for (jint i = 0; i < k; ++i) rocshmem::rocshmem_barrier_all();
}
inline void team_sync(jlong team, jint k) {
    for (jint i = 0; i < k; ++i) rocshmem::rocshmem_team_sync(team_of(team));
}
inline jint ctx_long_sum_reduce(jlong ctx, jlong team, jlong dest, jlong source, jint n, jint k) {
    jint status = 0;
    for (jint i = 0; i < k; ++i)
        status |= rocshmem::rocshmem_ctx_long_sum_reduce(ctx_at(ctx), team_of(team), reinterpret_cast<long*>(dest),
                                                         reinterpret_cast<const long*>(source), n);
    return status;
}
inline void ctx_long_broadcast(jlong ctx, jlong team, jlong dest, jlong source, jint n, jint root, jint k) {
    for (jint i = 0; i < k; ++i)
        rocshmem::rocshmem_ctx_long_broadcast(ctx_at(ctx), team_of(team), reinterpret_cast<long*>(dest),
                                              reinterpret_cast<const long*>(source), n, root);
}

// ---- stream-ordered put: k enqueues, then one hipStreamSynchronize (returns its status)
inline jint putmem_on_stream(jlong dest, jlong source, jlong bytes, jint pe, jlong stream, jint k) {
    auto s = reinterpret_cast<hipStream_t>(stream);
    for (jint i = 0; i < k; ++i)
        rocshmem::rocshmem_putmem_on_stream(reinterpret_cast<void*>(dest), reinterpret_cast<const void*>(source),
                                            static_cast<size_t>(bytes), pe, s);
    return static_cast<jint>(hipStreamSynchronize(s));
}

// ---- kernel launch: k hipModuleLaunchKernel of a (long*, int) kernel with kernelParams, then one
// hipStreamSynchronize (returns the first failing status)
inline jint module_launch(jlong function, jlong stream, jlong out, jint value, jint k) {
    auto f = reinterpret_cast<hipFunction_t>(function);
    auto s = reinterpret_cast<hipStream_t>(stream);
    void* pointer = reinterpret_cast<void*>(out);
    int v = value;
    void* params[] = {&pointer, &v};
    for (jint i = 0; i < k; ++i) {
        hipError_t status = hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, nullptr);
        if (status != hipSuccess) return static_cast<jint>(status);
    }
    return static_cast<jint>(hipStreamSynchronize(s));
}

}  // namespace rocshmem_bench

#endif  // ROCSHMEM_BENCH_LOOPS_H
