// rocshmem_buffer_register bookkeeping. On a GPU, registration makes a user buffer usable as
// the local side of RMA by the network backends. Every local address already works in the
// emulator, so registration changes no data path; it is tracked only to report the same API
// misuse rocSHMEM would (overlaps, unknown addresses).
#pragma once

#include <cstddef>

namespace rocshmem_emu {

// 0 on success; non-zero after an error line.
int buffer_register(void* addr, size_t length, const char* fn);
int buffer_unregister(void* addr, const char* fn);
void buffer_registry_clear();

}  // namespace rocshmem_emu
