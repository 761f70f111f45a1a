// Process-wide state of this PE after rocshmem_init*: where every heap is mapped, the control
// segment, and a few helpers used by every API file.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "control.hpp"
#include "env_config.hpp"

namespace rocshmem_emu {

struct Runtime {
  std::atomic<bool> initialized{false};
  int my_pe = -1;
  int n_pes = 0;
  int pes_per_node = 0;            // simulated nodes: node of pe = pe / pes_per_node
  size_t heap_size = 0;
  char* heap_base = nullptr;       // this PE's heap, mapped locally
  std::vector<char*> peer_base;    // peer_base[pe] = local mapping of pe's heap
  ControlSegment* ctl = nullptr;
  size_t ctl_bytes = 0;
  PeSlot* pes = nullptr;
  EnvConfig cfg;
  std::mutex init_mutex;  // serialises init/finalize
  std::string last_error;  // last init failure, for rocshmem_emu_last_init_error()
};

Runtime& runtime();

inline bool is_initialized() { return runtime().initialized.load(std::memory_order_acquire); }

// True when pe shares this PE's (simulated) node: its memory is directly addressable.
inline bool on_my_node(int pe) {
  const Runtime& rt = runtime();
  return pe / rt.pes_per_node == rt.my_pe / rt.pes_per_node;
}

// Reports "<fn>: rocSHMEM is not initialized" and returns false when init has not completed.
bool require_initialized(const char* fn);

bool window_offset(const void* p, size_t nbytes, size_t* offset);  // windows.hpp

// Byte offset of [p, p+nbytes) inside this PE's heap, or false when not symmetric. Addresses
// of raw views (windows.hpp) count as symmetric too; they are looked up only on a miss.
inline bool heap_offset(const void* p, size_t nbytes, size_t* offset) {
  const Runtime& rt = runtime();
  uintptr_t base = reinterpret_cast<uintptr_t>(rt.heap_base);
  uintptr_t addr = reinterpret_cast<uintptr_t>(p);
  size_t off = addr - base;
  if (addr < base || off > rt.heap_size || nbytes > rt.heap_size - off) return window_offset(p, nbytes, offset);
  *offset = off;
  return true;
}

}  // namespace rocshmem_emu
