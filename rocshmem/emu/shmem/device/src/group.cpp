#include "group.hpp"

#include <atomic>
#include <mutex>

namespace rocshmem_emu {

namespace {

struct GroupKey {
  const char* kernel;
  unsigned block[3];
  unsigned wave;  // UINT_MAX for a block-scope group
  bool operator==(const GroupKey& o) const {
    return kernel == o.kernel && block[0] == o.block[0] && block[1] == o.block[1] && block[2] == o.block[2] &&
           wave == o.wave;
  }
};

struct Slot {
  bool used = false;
  GroupKey key{};
  unsigned readers = 0;  // members that still have to collect
  unsigned char value[kGroupValueBytes];
};

// Few groups are between publish and the last collect at any time (one per running block at
// most); a full table makes the leader wait until a slot frees.
constexpr int kSlots = 1024;
Slot g_slots[kSlots];
std::mutex g_mutex;

GroupKey my_group(Scope scope) {
  unsigned thread[3], block[3], block_dim[3], grid_dim[3];
  rocshmem_emu_wi_ids(thread, block, block_dim, grid_dim);
  // A wavefront is named by its first work-item (the launch's wave size is 32 or 64).
  GroupKey k{rocshmem_emu_wi_kernel_name(), {block[0], block[1], block[2]},
             scope == Scope::block ? ~0u : rocshmem_emu_wi_flat_thread() - rocshmem_emu_wi_lane()};
  return k;
}

unsigned group_size(Scope scope) {
  return scope == Scope::block ? rocshmem_emu_wi_block_size() : rocshmem_emu_wi_wave_size();
}

// Index of the slot holding key, or -1.
int find(const GroupKey& key) {
  for (int i = 0; i < kSlots; i++)
    if (g_slots[i].used && g_slots[i].key == key) return i;
  return -1;
}

}  // namespace

void group_publish(Scope scope, const void* value, size_t bytes) {
  const unsigned readers = group_size(scope) - 1;
  if (readers == 0) return;
  const GroupKey key = my_group(scope);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      // An earlier group with the same key (the same kernel and grid launched twice at once)
      // may still have readers: wait for them rather than overwrite their value.
      if (find(key) < 0) {
        for (Slot& s : g_slots) {
          if (s.used) continue;
          s.used = true;
          s.key = key;
          s.readers = readers;
          memcpy(s.value, value, bytes);
          return;
        }
      }
    }
    rocshmem_emu_wi_yield();
  }
}

void group_collect(Scope scope, void* value, size_t bytes) {
  const GroupKey key = my_group(scope);
  std::lock_guard<std::mutex> lock(g_mutex);
  const int i = find(key);
  if (i < 0) {
    rocshmem_emu_wi_fault("rocSHMEM group call: the leader's result is missing (internal error)");
    return;
  }
  memcpy(value, g_slots[i].value, bytes);
  if (--g_slots[i].readers == 0) g_slots[i].used = false;
}

}  // namespace rocshmem_emu
