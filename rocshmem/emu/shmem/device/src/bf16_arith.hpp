// Arithmetic and comparisons of __hip_bfloat16 for the engine templates (reductions, waits).
// Under g++ the twin's __hip_bfloat16 is a plain 16-bit struct (HIP's own header needs clang's
// __bf16); the real library defines the bfloat16 device functions, so the emulator's device
// API needs the operations the host API never instantiates. Computed in float, rounded back
// to nearest even, as the hardware conversion does.
#pragma once

#include <cstdint>
#include <cstring>

#include "api_include.hpp"

#if !defined(__clang__)
inline float bf16_to_float(__hip_bfloat16 v) {
  uint32_t bits = uint32_t(v.data) << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

inline __hip_bfloat16 bf16_from_float(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu)) return __hip_bfloat16{uint16_t((bits >> 16) | 0x40)};
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return __hip_bfloat16{uint16_t(bits >> 16)};
}

inline __hip_bfloat16 operator+(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_from_float(bf16_to_float(a) + bf16_to_float(b)); }
inline __hip_bfloat16 operator*(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_from_float(bf16_to_float(a) * bf16_to_float(b)); }
inline bool operator<(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_to_float(a) < bf16_to_float(b); }
inline bool operator>(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_to_float(a) > bf16_to_float(b); }
inline bool operator<=(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_to_float(a) <= bf16_to_float(b); }
inline bool operator>=(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_to_float(a) >= bf16_to_float(b); }
inline bool operator==(__hip_bfloat16 a, __hip_bfloat16 b) { return bf16_to_float(a) == bf16_to_float(b); }
inline bool operator!=(__hip_bfloat16 a, __hip_bfloat16 b) { return !(a == b); }
#endif
