// The exported work-item C ABI (rocshmem_emu_workitem.h, rocshmem_emu_kernel_abi.h).
// On a plain host thread every function answers as for a group of one work-item.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "fault.hpp"
#include "scheduler.hpp"

#define ROCSHMEM_EMU_WI_API extern "C" __attribute__((visibility("default")))

using hip_emu::kernel::tl_item;
using hip_emu::kernel::tl_launch;

namespace {
const rocshmem_emu_wi_id_set_t kHostIds = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
}

// warpSize of the kernel language (declared there under this assembler name); the scheduler sets it
// to the launch's wave size on the stream thread while the launch runs.
extern "C" {
__attribute__((visibility("default"))) __thread int rocshmem_emu_wi_warp_size = 64;
}

// Launches running in this process (Launch::run); rocshmem_emu_workitem.h says why it is exported.
extern "C" {
__attribute__((visibility("default"))) int rocshmem_emu_wi_launches_running = 0;
}

ROCSHMEM_EMU_WI_API int rocshmem_emu_wi_in_kernel(void) { return tl_item != nullptr; }

// Every atomic of a kernel comes here: one read of each thread-local pointer.
ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_spin_point(int kind, const volatile void* address, uint64_t observed) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item != nullptr) item->launch->spin_point(item, kind, address, observed);
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_call_boundary(int poll) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item != nullptr) item->launch->call_boundary(item, poll != 0);
}

ROCSHMEM_EMU_WI_API int rocshmem_emu_wi_check_settings(char* message, unsigned long size) {
  std::string error;
  if (hip_emu::kernel::validate_kernel_settings(&error)) return 0;
  if (message != nullptr && size > 0) snprintf(message, size, "%s", error.c_str());
  return 1;
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_yield(void) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item != nullptr) item->launch->yield(item);
}

ROCSHMEM_EMU_WI_API const rocshmem_emu_wi_id_set_t* rocshmem_emu_wi_current_ids(void) {
  return tl_item != nullptr ? &tl_item->ids : &kHostIds;
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_ids(unsigned thread[3], unsigned block[3],
                                             unsigned block_dim[3], unsigned grid_dim[3]) {
  const rocshmem_emu_wi_id_set_t& ids = *rocshmem_emu_wi_current_ids();
  const rocshmem_emu_wi_dim_t* from[4] = {&ids.thread_idx, &ids.block_idx, &ids.block_dim, &ids.grid_dim};
  unsigned* to[4] = {thread, block, block_dim, grid_dim};
  for (int i = 0; i < 4; ++i) {
    if (to[i] == nullptr) continue;
    to[i][0] = from[i]->x;
    to[i][1] = from[i]->y;
    to[i][2] = from[i]->z;
  }
}

ROCSHMEM_EMU_WI_API unsigned rocshmem_emu_wi_flat_thread(void) {
  return tl_item != nullptr ? tl_item->flat : 0;
}

ROCSHMEM_EMU_WI_API unsigned rocshmem_emu_wi_block_size(void) {
  return tl_item != nullptr ? tl_item->block->size : 1;
}

ROCSHMEM_EMU_WI_API unsigned rocshmem_emu_wi_lane(void) {
  return tl_item != nullptr ? tl_item->lane : 0;
}

ROCSHMEM_EMU_WI_API unsigned rocshmem_emu_wi_wave_size(void) {
  return tl_item != nullptr ? tl_item->wave->size : 1;
}

ROCSHMEM_EMU_WI_API const char* rocshmem_emu_wi_kernel_name(void) {
  return tl_item != nullptr ? tl_launch->kernel().name.c_str() : "";
}

// The meeting entry points read the thread-local work-item once (each read is a TLS-descriptor call).
ROCSHMEM_EMU_WI_API int rocshmem_emu_wi_group_enter(int scope, const char* call) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item == nullptr) return 1;
  return item->launch->group_enter(item, scope, call != nullptr ? call : "(unnamed group call)");
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_group_leave(int scope) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item != nullptr) item->launch->group_leave(item, scope, nullptr, 0);
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_group_leave_value(int scope, void* value, unsigned long bytes) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item != nullptr) item->launch->group_leave(item, scope, value, bytes);
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_fault(const char* what) {
  if (what == nullptr) what = "faulted";
  if (tl_item != nullptr) hip_emu::kernel::die_in_work_item("%s; ending the PE", what);
  fprintf(stderr, "HIP emulator: a device fault outside a kernel: %s\n", what);
  fflush(stdout);
  _exit(hip_emu::kernel::kFaultExitStatus);
}

ROCSHMEM_EMU_WI_API void rocshmem_emu_wi_syncthreads(void) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item != nullptr) item->launch->syncthreads(item);
}

ROCSHMEM_EMU_WI_API uint64_t rocshmem_emu_wi_wave_exchange(int op, uint64_t value, int src_lane) {
  hip_emu::kernel::WorkItem* item = tl_item;
  if (item == nullptr) return op == ROCSHMEM_EMU_WI_BALLOT ? (value != 0) : value;
  return item->launch->wave_exchange(item, op, value, src_lane);
}
