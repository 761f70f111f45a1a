// The emulator's ncclUniqueId: a magic, a random namespace that names the communicator's shared
// memory segment, and a random secret that every joining rank must present.
#pragma once

#include <rccl/rccl.h>

#include <cstdint>
#include <string>

namespace rccl_emu {

struct IdContent {
  uint8_t name_space[16];
  uint8_t secret[16];
};

// Fills `id` with fresh random content; false if the kernel refuses random bytes.
bool create_unique_id(ncclUniqueId* id);

// Reads an id; false if it was not made by this library (wrong magic).
bool parse_unique_id(const ncclUniqueId& id, IdContent* out);

// The id of a communicator derived from `parent` (split, shrink): the same on every rank that
// derives it with the same `sequence` and `color`, different for any other pair.
ncclUniqueId derive_unique_id(const IdContent& parent, uint64_t sequence, int64_t color);

// POSIX shared memory name of the communicator segment: "/rccl-emu-<namespace in hex>".
std::string segment_name(const IdContent& id);

}  // namespace rccl_emu
