// TEMPORARY copy of the work-item C ABI from tools/KERNEL-CONTRACT.md, used only until the
// kernel-engine branch (rocshmem/emu/kernel/include/rocshmem_emu_workitem.h) is merged.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

int rocshmem_emu_wi_in_kernel(void);
void rocshmem_emu_wi_yield(void);
void rocshmem_emu_wi_ids(unsigned thread[3], unsigned block[3], unsigned block_dim[3], unsigned grid_dim[3]);
unsigned rocshmem_emu_wi_flat_thread(void);
unsigned rocshmem_emu_wi_block_size(void);
unsigned rocshmem_emu_wi_lane(void);
unsigned rocshmem_emu_wi_wave_size(void);
const char* rocshmem_emu_wi_kernel_name(void);
int rocshmem_emu_wi_group_enter(int scope, const char* call);
void rocshmem_emu_wi_group_leave(int scope);
void rocshmem_emu_wi_fault(const char* what);
int rocshmem_emu_wi_module_mark_rocshmem(void* module);

#ifdef __cplusplus
}
#endif
