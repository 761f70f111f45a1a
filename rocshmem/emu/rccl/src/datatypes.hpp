// Element types and the arithmetic of reductions, exactly and deterministically:
// contributions are combined in rank order (rank 0 first), and each step is rounded to the
// element type, as the device would do it. Integers wrap around (two's complement).
// 16- and 8-bit floats: IEEE binary16 (half), bfloat16, OCP FP8 E4M3 (no infinities, max 448) and
// E5M2; conversions round to nearest even; FP8 overflow saturates to the largest finite value.
#pragma once

#include <rccl/rccl.h>

#include <cstddef>
#include <cstdint>

namespace rccl_emu {

enum class BaseOp { sum, prod, max, min };

// Bytes per element; 0 for a value that is not an ncclDataType_t.
size_t type_size(int type);
const char* type_name(int type);
bool is_floating(ncclDataType_t type);

// out[i] = in[0][i] op in[1][i] op ... op in[n-1][i]; `out` may alias any input.
void reduce(ncclDataType_t type, BaseOp op, void* out, const void* const* inputs, int n, size_t count);

// out[i] = in[i] * (*scalar), the scalar being one element of `type`; `out` may alias `in`.
void multiply(ncclDataType_t type, void* out, const void* in, const void* scalar, size_t count);

// data[i] /= n, for integer types (the average of integers is the wrapped sum divided by n,
// rounded toward zero).
void divide(ncclDataType_t type, void* data, int n, size_t count);

// Stores 1/n, rounded to `type` (a floating type), into `out`.
void store_reciprocal(ncclDataType_t type, int n, void* out);

// Minifloat codecs (exposed for the native tests).
uint16_t half_from_double(double v);
double half_to_double(uint16_t bits);
uint16_t bfloat16_from_double(double v);
double bfloat16_to_double(uint16_t bits);
uint8_t fp8e4m3_from_double(double v);
double fp8e4m3_to_double(uint8_t bits);
uint8_t fp8e5m2_from_double(double v);
double fp8e5m2_to_double(uint8_t bits);

}  // namespace rccl_emu
