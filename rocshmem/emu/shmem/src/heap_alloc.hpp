// Symmetric allocator. Every PE runs the same deterministic first-fit algorithm on its own
// heap; since OpenSHMEM requires all PEs to make the same sequence of allocation calls, the
// offsets agree everywhere without communication.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

namespace rocshmem_emu {

constexpr size_t kDefaultAlignment = 128;  // rocSHMEM's ALIGNMENT (dlmalloc MALLOC_ALIGNMENT)
// Every heap mapping starts on this boundary (see bootstrap.cpp); larger alignments are refused.
constexpr size_t kHeapBaseAlignment = size_t(1) << 30;

class SymmetricHeap {
 public:
  void reset(size_t heap_size);
  // Offset of a new block, or false when no block fits. alignment must be a power of two
  // no larger than kHeapBaseAlignment.
  bool allocate(size_t size, size_t alignment, size_t* offset);
  // false when offset is not the start of a live block; *bytes = the block's (rounded) size.
  bool release(size_t offset, size_t* bytes = nullptr);
  size_t bytes_in_use() const;

 private:
  mutable std::mutex mutex_;
  std::map<size_t, size_t> free_;  // offset -> size, coalesced
  std::map<size_t, size_t> used_;  // offset -> size
};

SymmetricHeap& symmetric_heap();

}  // namespace rocshmem_emu
