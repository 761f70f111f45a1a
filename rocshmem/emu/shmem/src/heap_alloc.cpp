#include "heap_alloc.hpp"

namespace rocshmem_emu {

SymmetricHeap& symmetric_heap() {
  static SymmetricHeap heap;
  return heap;
}

void SymmetricHeap::reset(size_t heap_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_.clear();
  used_.clear();
  if (heap_size) free_[0] = heap_size;
}

bool SymmetricHeap::allocate(size_t size, size_t alignment, size_t* offset) {
  if (size == 0 || alignment == 0 || (alignment & (alignment - 1)) || alignment > kHeapBaseAlignment) return false;
  if (alignment < kDefaultAlignment) alignment = kDefaultAlignment;
  // Round sizes up so every block boundary stays aligned to the default alignment.
  if (size > SIZE_MAX - kDefaultAlignment) return false;
  size = (size + kDefaultAlignment - 1) & ~(kDefaultAlignment - 1);
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    size_t start = it->first, len = it->second;
    size_t aligned = (start + alignment - 1) & ~(alignment - 1);
    size_t pad = aligned - start;
    if (pad > len || len - pad < size) continue;
    free_.erase(it);
    if (pad) free_[start] = pad;
    if (len - pad > size) free_[aligned + size] = len - pad - size;
    used_[aligned] = size;
    *offset = aligned;
    return true;
  }
  return false;
}

bool SymmetricHeap::release(size_t offset, size_t* bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = used_.find(offset);
  if (it == used_.end()) return false;
  size_t start = it->first, len = it->second;
  if (bytes) *bytes = len;
  used_.erase(it);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + len == next->first) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += len;
      return true;
    }
  }
  free_[start] = len;
  return true;
}

size_t SymmetricHeap::bytes_in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t total = 0;
  for (auto& kv : used_) total += kv.second;
  return total;
}

}  // namespace rocshmem_emu
