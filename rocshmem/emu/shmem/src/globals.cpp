// Definitions of the header's extern variables. On a GPU build they are device variables with
// host shadow symbols; here they are ordinary host variables. Only the host team handles carry
// meaning for host code; the others are kept coherent for code that reads them anyway.
#include "globals.hpp"

#include "api_include.hpp"
#include "context.hpp"

namespace rocshmem {
namespace host {
ROCSHMEM_EMU_API rocshmem_team_t ROCSHMEM_TEAM_WORLD = nullptr;
ROCSHMEM_EMU_API rocshmem_team_t ROCSHMEM_TEAM_SHARED = nullptr;
}  // namespace host
namespace device {
ROCSHMEM_EMU_API rocshmem_team_t ROCSHMEM_TEAM_WORLD = nullptr;
extern "C" {
ROCSHMEM_EMU_API rocshmem_team_t ROCSHMEM_TEAM_SHARED = nullptr;
}
}  // namespace device
extern "C" {
ROCSHMEM_EMU_API rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT = {nullptr, nullptr};
}
ROCSHMEM_EMU_API rocshmem_ctx_t ROCSHMEM_CTX_INVALID = {nullptr, nullptr};
ROCSHMEM_EMU_API rocshmem_ctx_t* rocshmem_ctx_array = nullptr;
}  // namespace rocshmem

namespace rocshmem_emu {

void publish_team_globals(Team* world, Team* shared) {
  auto w = reinterpret_cast<rocshmem::rocshmem_team_t>(world);
  auto s = reinterpret_cast<rocshmem::rocshmem_team_t>(shared);
  rocshmem::host::ROCSHMEM_TEAM_WORLD = rocshmem::device::ROCSHMEM_TEAM_WORLD = w;
  rocshmem::host::ROCSHMEM_TEAM_SHARED = rocshmem::device::ROCSHMEM_TEAM_SHARED = s;
  rocshmem::ROCSHMEM_CTX_DEFAULT = world ? default_ctx() : rocshmem::rocshmem_ctx_t{nullptr, nullptr};
}

}  // namespace rocshmem_emu
