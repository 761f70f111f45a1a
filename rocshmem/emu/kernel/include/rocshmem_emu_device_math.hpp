// Device math as a HIP compiler provides it: hip/hip_runtime.h brings in <cmath> (the C and std::
// math functions work in kernels), HIP's global min/max overloads, and the fast-math intrinsics
// that kernels call by name. On the CPU every one of them is the ordinary (correctly rounded or
// better) function: the emulator never computes less precisely than a GPU.
#ifndef ROCSHMEM_EMU_DEVICE_MATH_HPP
#define ROCSHMEM_EMU_DEVICE_MATH_HPP

#include <climits>
#include <cmath>
#include <cstdlib>
#include <math.h>  // libstdc++'s: the std:: overloads (isnan, isinf, fabs(float), ...) at global scope too

// HIP declares min and max for each integer and floating-point type, host and device.
#define ROCSHMEM_EMU_MIN_MAX(T)                                 \
  inline T min(T a, T b) { return b < a ? b : a; }             \
  inline T max(T a, T b) { return a < b ? b : a; }
ROCSHMEM_EMU_MIN_MAX(int)
ROCSHMEM_EMU_MIN_MAX(unsigned int)
ROCSHMEM_EMU_MIN_MAX(long)
ROCSHMEM_EMU_MIN_MAX(unsigned long)
ROCSHMEM_EMU_MIN_MAX(long long)
ROCSHMEM_EMU_MIN_MAX(unsigned long long)
#undef ROCSHMEM_EMU_MIN_MAX
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
inline unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// Device math functions of HIP that the C library lacks (C23 added some to glibc 2.41 and 2.42).
#if defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 41)
#define ROCSHMEM_EMU_LIBC_HAS_SINPI 1
#endif
#if __GLIBC_PREREQ(2, 42)
#define ROCSHMEM_EMU_LIBC_HAS_RSQRT 1
#endif
#endif
#ifndef ROCSHMEM_EMU_LIBC_HAS_RSQRT
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
#endif
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
#ifndef ROCSHMEM_EMU_LIBC_HAS_SINPI
inline float sinpif(float x) { return std::sin(static_cast<float>(M_PI) * x); }
inline double sinpi(double x) { return std::sin(M_PI * x); }
inline float cospif(float x) { return std::cos(static_cast<float>(M_PI) * x); }
inline double cospi(double x) { return std::cos(M_PI * x); }
#endif
inline float fdividef(float x, float y) { return x / y; }
inline float saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float normcdff(float x) { return 0.5f * std::erfc(-x / std::sqrt(2.0f)); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The fast intrinsics (a GPU computes them with less precision; here they are exact).
inline float __fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return saturatef(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
inline float __frsqrt_rn(float x) { return rsqrtf(x); }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline int __double2int_rn(double x) { return static_cast<int>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline int __float_as_int(float x) { int i; __builtin_memcpy(&i, &x, sizeof i); return i; }
inline float __int_as_float(int i) { float x; __builtin_memcpy(&x, &i, sizeof x); return x; }
inline unsigned int __float_as_uint(float x) { unsigned int i; __builtin_memcpy(&i, &x, sizeof i); return i; }
inline float __uint_as_float(unsigned int i) { float x; __builtin_memcpy(&x, &i, sizeof x); return x; }
inline long long __double_as_longlong(double x) { long long i; __builtin_memcpy(&i, &x, sizeof i); return i; }
inline double __longlong_as_double(long long i) { double x; __builtin_memcpy(&x, &i, sizeof x); return x; }

#endif  // ROCSHMEM_EMU_DEVICE_MATH_HPP
