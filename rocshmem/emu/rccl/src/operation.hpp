// One enqueued RCCL call, fully validated, as the stream task will run it.
#pragma once

#include <rccl/rccl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "datatypes.hpp"

namespace rccl_emu {

// Also the tag of every message an operation sends: a receiver running a different collective
// notices the mismatch instead of consuming foreign data.
enum class Kind : uint32_t {
  all_reduce = 1, broadcast, reduce, all_gather, reduce_scatter, all_to_all, all_to_allv, gather, scatter,
  send, recv, all_reduce_with_bias,
};

const char* kind_name(Kind kind);

// What a reduction does, resolved at enqueue time (user ops, Avg and PreMulSum all map onto this).
struct Reduction {
  BaseOp base = BaseOp::sum;
  bool premultiply = false;        // PreMulSum, and Avg of floating types (scalar 1/nranks)
  bool divide_after = false;       // Avg of integer types
  bool scalar_on_device = false;
  unsigned char scalar[8] = {};    // one element of the data type
  const void* device_scalar = nullptr;
};

struct Operation {
  Kind kind;
  const void* send = nullptr;
  void* recv = nullptr;
  size_t count = 0;
  ncclDataType_t type = ncclInt8;
  Reduction reduction;
  int root = 0;   // broadcast, reduce, gather, scatter
  int peer = 0;   // send, recv
  const void* bias = nullptr;  // all_reduce_with_bias (may be null)
  std::vector<size_t> send_counts, send_displs, recv_counts, recv_displs;  // all_to_allv
  hipStream_t stream = nullptr;

  bool is_point_to_point() const { return kind == Kind::send || kind == Kind::recv; }
};

}  // namespace rccl_emu
