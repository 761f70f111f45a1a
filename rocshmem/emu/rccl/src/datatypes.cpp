#include "datatypes.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace rccl_emu {
namespace {

// A binary minifloat: 1 sign bit, E exponent bits, M mantissa bits, IEEE bias.
struct MiniFormat {
  int exponent_bits;
  int mantissa_bits;
  bool has_infinity;  // IEEE-like (all-ones exponent = inf/NaN); false for E4M3 (only S.1111.111 is NaN)
  bool saturate;      // overflow gives the largest finite value instead of infinity
};

constexpr MiniFormat kHalf{5, 10, true, false};
constexpr MiniFormat kBfloat16{8, 7, true, false};
constexpr MiniFormat kE4M3{4, 3, false, true};
constexpr MiniFormat kE5M2{5, 2, true, true};

int bias(const MiniFormat& f) { return (1 << (f.exponent_bits - 1)) - 1; }
int total_bits(const MiniFormat& f) { return 1 + f.exponent_bits + f.mantissa_bits; }

uint32_t nan_bits(const MiniFormat& f) {
  uint32_t all_exp = (1u << f.exponent_bits) - 1;
  uint32_t all_man = (1u << f.mantissa_bits) - 1;
  return f.has_infinity ? (all_exp << f.mantissa_bits) | (1u << (f.mantissa_bits - 1)) : (all_exp << f.mantissa_bits) | all_man;
}

uint32_t max_finite_bits(const MiniFormat& f) {
  uint32_t all_exp = (1u << f.exponent_bits) - 1;
  uint32_t all_man = (1u << f.mantissa_bits) - 1;
  return f.has_infinity ? ((all_exp - 1) << f.mantissa_bits) | all_man : (all_exp << f.mantissa_bits) | (all_man - 1);
}

uint32_t encode(const MiniFormat& f, double v) {
  uint32_t sign = std::signbit(v) ? 1u << (total_bits(f) - 1) : 0u;
  if (std::isnan(v)) return sign | nan_bits(f);
  double a = std::fabs(v);
  uint32_t overflow = f.saturate || !f.has_infinity ? max_finite_bits(f)
                                                    : ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
  if (std::isinf(a)) return sign | overflow;
  if (a == 0) return sign;
  const int M = f.mantissa_bits;
  const int min_normal_exp = 1 - bias(f);
  int e;
  std::frexp(a, &e);  // a = m * 2^e with m in [0.5, 1): a = 1.x * 2^(e-1)
  int unbiased = e - 1;
  uint64_t bits;
  if (unbiased < min_normal_exp) {
    // Subnormal: a count of quanta 2^(min_normal_exp - M); a count of 2^M is the smallest normal.
    double quanta = std::nearbyint(std::ldexp(a, M - min_normal_exp));
    bits = static_cast<uint64_t>(quanta);
  } else {
    double significand = std::nearbyint(std::ldexp(a, M - unbiased));  // in [2^M, 2^(M+1)]
    if (significand >= std::ldexp(1.0, M + 1)) {
      significand = std::ldexp(1.0, M);
      ++unbiased;
    }
    uint64_t field = static_cast<uint64_t>(unbiased + bias(f));
    bits = (field << M) | (static_cast<uint64_t>(significand) - (uint64_t(1) << M));
  }
  if (bits > max_finite_bits(f)) return sign | overflow;
  return sign | static_cast<uint32_t>(bits);
}

double decode(const MiniFormat& f, uint32_t bits) {
  const int M = f.mantissa_bits;
  uint32_t sign = bits >> (total_bits(f) - 1) & 1u;
  uint32_t field = bits >> M & ((1u << f.exponent_bits) - 1);
  uint32_t man = bits & ((1u << M) - 1);
  double value;
  uint32_t all_exp = (1u << f.exponent_bits) - 1;
  if (f.has_infinity && field == all_exp) {
    value = man == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (!f.has_infinity && field == all_exp && man == (1u << M) - 1) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (field == 0) {
    value = std::ldexp(static_cast<double>(man), 1 - bias(f) - M);
  } else {
    value = std::ldexp(static_cast<double>(man | (1u << M)), static_cast<int>(field) - bias(f) - M);
  }
  return sign ? -value : value;
}

// ---- element traits: how to load, combine and store one element -----------------------------

// Integers compute in their unsigned twin so that overflow wraps instead of being undefined.
template <class Int>
struct Integer {
  using storage = Int;
  using compute = Int;
  using wide = std::make_unsigned_t<Int>;
  static constexpr bool integer = true;
  static compute load(storage s) { return s; }
  static storage store(compute c) { return c; }
  static compute add(compute a, compute b) { return static_cast<Int>(static_cast<wide>(a) + static_cast<wide>(b)); }
  static compute mul(compute a, compute b) { return static_cast<Int>(static_cast<wide>(a) * static_cast<wide>(b)); }
};

template <class Float>
struct IeeeFloat {
  using storage = Float;
  using compute = Float;
  static constexpr bool integer = false;
  static compute load(storage s) { return s; }
  static storage store(compute c) { return c; }
  static compute add(compute a, compute b) { return a + b; }
  static compute mul(compute a, compute b) { return a * b; }
};

// 16/8-bit floats: computed exactly in double, rounded back to the format after every step.
template <class Bits, const MiniFormat& F>
struct Mini {
  using storage = Bits;
  using compute = double;
  static constexpr bool integer = false;
  static compute load(storage s) { return decode(F, s); }
  static storage store(compute c) { return static_cast<Bits>(encode(F, c)); }
  static compute round(compute c) { return decode(F, encode(F, c)); }
  static compute add(compute a, compute b) { return round(a + b); }
  static compute mul(compute a, compute b) { return round(a * b); }
};

template <class T>
typename T::compute combine(BaseOp op, typename T::compute a, typename T::compute b) {
  switch (op) {
    case BaseOp::sum: return T::add(a, b);
    case BaseOp::prod: return T::mul(a, b);
    case BaseOp::max: return b > a ? b : a;
    case BaseOp::min: return b < a ? b : a;
  }
  return a;
}

template <class T>
void reduce_typed(BaseOp op, void* out, const void* const* inputs, int n, size_t count) {
  using S = typename T::storage;
  auto* dst = static_cast<S*>(out);
  for (size_t i = 0; i < count; ++i) {
    S first;
    std::memcpy(&first, static_cast<const S*>(inputs[0]) + i, sizeof(S));
    typename T::compute acc = T::load(first);
    for (int k = 1; k < n; ++k) {
      S next;
      std::memcpy(&next, static_cast<const S*>(inputs[k]) + i, sizeof(S));
      acc = combine<T>(op, acc, T::load(next));
    }
    S result = T::store(acc);
    std::memcpy(dst + i, &result, sizeof(S));
  }
}

template <class T>
void multiply_typed(void* out, const void* in, const void* scalar, size_t count) {
  using S = typename T::storage;
  S s;
  std::memcpy(&s, scalar, sizeof(S));
  typename T::compute factor = T::load(s);
  for (size_t i = 0; i < count; ++i) {
    S x;
    std::memcpy(&x, static_cast<const S*>(in) + i, sizeof(S));
    S y = T::store(T::mul(T::load(x), factor));
    std::memcpy(static_cast<S*>(out) + i, &y, sizeof(S));
  }
}

template <class T>
void divide_typed(void* data, int n, size_t count) {
  using S = typename T::storage;
  for (size_t i = 0; i < count; ++i) {
    S x;
    std::memcpy(&x, static_cast<S*>(data) + i, sizeof(S));
    x = static_cast<S>(x / static_cast<S>(n));
    std::memcpy(static_cast<S*>(data) + i, &x, sizeof(S));
  }
}

using Half = Mini<uint16_t, kHalf>;
using Bfloat16 = Mini<uint16_t, kBfloat16>;
using E4M3 = Mini<uint8_t, kE4M3>;
using E5M2 = Mini<uint8_t, kE5M2>;

// Expands ACTION(Traits) for the traits of `type` (a switch; C++17 has no template lambdas).
#define RCCL_EMU_FOR_TYPE(type, ACTION)                       \
  switch (type) {                                             \
    case ncclInt8: ACTION(Integer<int8_t>); break;            \
    case ncclUint8: ACTION(Integer<uint8_t>); break;          \
    case ncclInt32: ACTION(Integer<int32_t>); break;          \
    case ncclUint32: ACTION(Integer<uint32_t>); break;        \
    case ncclInt64: ACTION(Integer<int64_t>); break;          \
    case ncclUint64: ACTION(Integer<uint64_t>); break;        \
    case ncclFloat16: ACTION(Half); break;                    \
    case ncclFloat32: ACTION(IeeeFloat<float>); break;        \
    case ncclFloat64: ACTION(IeeeFloat<double>); break;       \
    case ncclBfloat16: ACTION(Bfloat16); break;               \
    case ncclFloat8e4m3: ACTION(E4M3); break;                 \
    case ncclFloat8e5m2: ACTION(E5M2); break;                 \
    default: break;                                           \
  }

template <class T>
void store_reciprocal_typed(int n, void* out) {
  if constexpr (!T::integer) {
    typename T::storage s = T::store(static_cast<typename T::compute>(1.0 / n));
    std::memcpy(out, &s, sizeof s);
  }
}

template <class T>
void divide_if_integer(void* data, int n, size_t count) {
  if constexpr (T::integer) divide_typed<T>(data, n, count);
}

}  // namespace

size_t type_size(int type) {
  switch (type) {
    case ncclInt8: case ncclUint8: case ncclFloat8e4m3: case ncclFloat8e5m2: return 1;
    case ncclFloat16: case ncclBfloat16: return 2;
    case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
    case ncclInt64: case ncclUint64: case ncclFloat64: return 8;
    default: return 0;
  }
}

const char* type_name(int type) {
  static const char* const names[] = {"ncclInt8", "ncclUint8", "ncclInt32", "ncclUint32", "ncclInt64",
                                      "ncclUint64", "ncclFloat16", "ncclFloat32", "ncclFloat64",
                                      "ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2"};
  return type >= 0 && type < ncclNumTypes ? names[type] : "(invalid ncclDataType_t)";
}

bool is_floating(ncclDataType_t type) {
  return type >= ncclFloat16 && type <= ncclFloat8e5m2;
}

void reduce(ncclDataType_t type, BaseOp op, void* out, const void* const* inputs, int n, size_t count) {
#define RCCL_EMU_REDUCE(T) reduce_typed<T>(op, out, inputs, n, count)
  RCCL_EMU_FOR_TYPE(type, RCCL_EMU_REDUCE)
#undef RCCL_EMU_REDUCE
}

void multiply(ncclDataType_t type, void* out, const void* in, const void* scalar, size_t count) {
#define RCCL_EMU_MULTIPLY(T) multiply_typed<T>(out, in, scalar, count)
  RCCL_EMU_FOR_TYPE(type, RCCL_EMU_MULTIPLY)
#undef RCCL_EMU_MULTIPLY
}

void divide(ncclDataType_t type, void* data, int n, size_t count) {
#define RCCL_EMU_DIVIDE(T) divide_if_integer<T>(data, n, count)
  RCCL_EMU_FOR_TYPE(type, RCCL_EMU_DIVIDE)
#undef RCCL_EMU_DIVIDE
}

void store_reciprocal(ncclDataType_t type, int n, void* out) {
#define RCCL_EMU_RECIPROCAL(T) store_reciprocal_typed<T>(n, out)
  RCCL_EMU_FOR_TYPE(type, RCCL_EMU_RECIPROCAL)
#undef RCCL_EMU_RECIPROCAL
}

uint16_t half_from_double(double v) { return static_cast<uint16_t>(encode(kHalf, v)); }
double half_to_double(uint16_t bits) { return decode(kHalf, bits); }
uint16_t bfloat16_from_double(double v) { return static_cast<uint16_t>(encode(kBfloat16, v)); }
double bfloat16_to_double(uint16_t bits) { return decode(kBfloat16, bits); }
uint8_t fp8e4m3_from_double(double v) { return static_cast<uint8_t>(encode(kE4M3, v)); }
double fp8e4m3_to_double(uint8_t bits) { return decode(kE4M3, bits); }
uint8_t fp8e5m2_from_double(double v) { return static_cast<uint8_t>(encode(kE5M2, v)); }
double fp8e5m2_to_double(uint8_t bits) { return decode(kE5M2, bits); }

}  // namespace rccl_emu
