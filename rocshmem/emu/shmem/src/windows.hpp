// Raw views (what SymmetricBuffer.as*Pointer/asByteBuffer hand out in Java) are windows: a second
// mapping of a heap block at an address of its own, made with mremap(old_size = 0). When the block
// is freed, or at finalize, the window is replaced by private scratch memory, so a view kept too
// long reads zeros and its writes vanish: it can never reach a later allocation in that block,
// and it never faults. rocSHMEM calls accept window addresses of this PE's own heap as symmetric
// addresses (heap_offset falls back to window_offset).
#pragma once

#include <cstddef>
#include <string>

namespace rocshmem_emu {

// Window over [addr, addr + bytes), which must lie inside one PE's heap mapping (own or peer);
// nullptr and *error on failure.
void* window_open(const void* addr, size_t bytes, std::string* error);

// Revokes every window (of any PE's heap) overlapping heap offsets [offset, offset + bytes).
void windows_revoke(size_t offset, size_t bytes);

// Revokes every window (finalize).
void windows_revoke_all();

// Heap offset of [p, p + nbytes) when p lies in a live window of this PE's own heap. Lock-free.
bool window_offset(const void* p, size_t nbytes, size_t* offset);

}  // namespace rocshmem_emu
