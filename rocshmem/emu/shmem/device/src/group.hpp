// Work-group (_wg) and wavefront (_wave) calls on the emulator's work-item scheduler.
// Every work-item of the group calls with the same arguments; the leader (flat thread 0 / lane
// 0) does the work once, the others wait in the kernel engine and then return the leader's
// result, which the engine hands over (rocshmem_emu_wi_group_leave_value).
// A group that can never complete (some work-items finished or wait elsewhere) ends the PE in
// the scheduler with a message naming the call, the kernel, the block and how many arrived.
// Outside a kernel (a host thread) the caller is a group of one and does the work itself.
#pragma once

#include <cstring>
#include <type_traits>

#include "rocshmem_emu_workitem.h"

namespace rocshmem_emu {

enum class Scope : int { wave = 0, block = 1 };

template <class Work>
auto group_call(Scope scope, const char* fn, Work&& work) -> decltype(work()) {
  using R = decltype(work());
  const int s = static_cast<int>(scope);
  // On a host thread group_enter answers 1 (a group of one) and the leaves return at once. The
  // others return from group_enter once the leader left: only the leader's leave does something.
  if constexpr (std::is_void_v<R>) {
    if (rocshmem_emu_wi_group_enter(s, fn)) {
      work();
      rocshmem_emu_wi_group_leave(s);
    }
  } else {
    static_assert(sizeof(R) <= ROCSHMEM_EMU_WI_GROUP_VALUE_BYTES && std::is_trivially_copyable_v<R>,
                  "group result too large");
    R result{};
    if (rocshmem_emu_wi_group_enter(s, fn)) result = work();
    rocshmem_emu_wi_group_leave_value(s, &result, sizeof(R));
    return result;
  }
}

}  // namespace rocshmem_emu
