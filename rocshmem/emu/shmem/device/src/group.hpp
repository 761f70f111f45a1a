// Work-group (_wg) and wavefront (_wave) calls on the emulator's work-item scheduler.
// Every work-item of the group calls with the same arguments; the leader (flat thread 0 / lane
// 0) does the work once, the others wait in group_leave and then return the leader's result.
// A group that can never complete (some work-items finished or wait elsewhere) ends the PE in
// the scheduler with a message naming the call, the kernel, the block and how many arrived.
// Outside a kernel (a host thread) the caller is a group of one and does the work itself.
#pragma once

#include <cstring>
#include <type_traits>

#include "rocshmem_emu_workitem.h"

namespace rocshmem_emu {

enum class Scope : int { wave = 0, block = 1 };

// The leader's result is handed to the other members through a slot keyed by the group
// (kernel, block, wavefront); the last member to read it frees the slot.
constexpr size_t kGroupValueBytes = 32;
void group_publish(Scope scope, const void* value, size_t bytes);
void group_collect(Scope scope, void* value, size_t bytes);

template <class Work>
auto group_call(Scope scope, const char* fn, Work&& work) -> decltype(work()) {
  using R = decltype(work());
  if (!rocshmem_emu_wi_in_kernel()) return work();
  const int s = static_cast<int>(scope);
  if constexpr (std::is_void_v<R>) {
    if (rocshmem_emu_wi_group_enter(s, fn)) work();
    rocshmem_emu_wi_group_leave(s);
  } else {
    static_assert(sizeof(R) <= kGroupValueBytes && std::is_trivially_copyable_v<R>, "group result too large");
    R result{};
    const bool leader = rocshmem_emu_wi_group_enter(s, fn) != 0;
    if (leader) {
      result = work();
      group_publish(scope, &result, sizeof(R));
    }
    rocshmem_emu_wi_group_leave(s);
    if (!leader) group_collect(scope, &result, sizeof(R));
    return result;
  }
}

}  // namespace rocshmem_emu
