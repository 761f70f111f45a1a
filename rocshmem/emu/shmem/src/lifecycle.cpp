#include "lifecycle.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "buffer_registry.hpp"
#include "completion.hpp"
#include "profile.hpp"
#include "globals.hpp"
#include "context.hpp"
#include "heap_alloc.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "teams.hpp"
#include "windows.hpp"

namespace rocshmem_emu {

namespace {

std::string fnv1a_hex(const std::string& text) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  uint8_t bytes[8];
  for (int i = 0; i < 8; i++) bytes[i] = uint8_t(h >> (8 * i));
  return hex(bytes, sizeof bytes);
}

// A PE that leaves without finalize marks itself so blocked peers fail at once.
void mark_exited_at_exit() {
  Runtime& rt = runtime();
  if (rt.initialized.load() && rt.pes) rt.pes[rt.my_pe].state.store(kPeExited, std::memory_order_release);
}

}  // namespace

int init_failed(const std::string& error) {
  runtime().last_error = error;
  report_error("rocSHMEM init failed: %s", error.c_str());
  return 1;
}

bool env_join_request(JoinRequest* request, std::string* error) {
  EnvPlacement placement;
  std::string key, source;
  if (!load_env_placement(&placement, error) || !derive_job_key(placement, &key, &source, error)) return false;
  if (key.empty()) {  // single PE without a job id: a private random key
    uint8_t rnd[16];
    if (!random_bytes(rnd, sizeof rnd)) return *error = "getrandom failed", false;
    key = "single:" + hex(rnd, sizeof rnd);
    source = "private key of a single PE";
  }
  request->rank = placement.rank;
  request->n_pes = placement.world_size;
  request->job_key = "j" + fnv1a_hex(key);
  request->job_source = source;
  memset(request->secret, 0, sizeof request->secret);
  debug_log(1, "bootstrap: rank %d of %d from %s, job key from %s -> %s", placement.rank, placement.world_size,
            placement.source, source.c_str(), request->job_key.c_str());
  return true;
}

int initialize(const JoinRequest& request) {
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> lock(rt.init_mutex);
  if (rt.initialized.load()) {
    debug_log(1, "rocSHMEM is already initialized; init call ignored");
    return 0;
  }
  if (request.n_pes < 1 || request.n_pes > kMaxPes || request.rank < 0 || request.rank >= request.n_pes)
    return init_failed("invalid rank " + std::to_string(request.rank) + " of " + std::to_string(request.n_pes) +
                       " PEs (the emulator supports 1.." + std::to_string(kMaxPes) + " PEs)");
  std::string error;
  rt.cfg = EnvConfig();
  if (!load_env_config(&rt.cfg, &error)) return init_failed(error);
  if (request.rank == 0)
    for (const std::string& warning : rt.cfg.warnings) report_error("warning: %s", warning.c_str());
  int per_node = 0;
  std::string node_source, node_warning;
  if (!load_pes_per_node(request.n_pes, &per_node, &node_source, &node_warning, &error)) return init_failed(error);
  if (request.rank == 0 && !node_warning.empty()) report_error("warning: %s", node_warning.c_str());
  if (!bootstrap_join(request, &error)) return init_failed(error);
  rt.pes_per_node = per_node;
  if (per_node < rt.n_pes)
    debug_log(1, "simulated nodes of %d PEs (%s): this PE is on node %d", per_node, node_source.c_str(),
              rt.my_pe / per_node);
  symmetric_heap().reset(std::min(rt.heap_size, rt.cfg.heap_usable));
  completion_init(rt.cfg.completion, rt.cfg.progress_ms, rt.ctl->delivery_seed, rt.my_pe);
  g_ipc_uid_profile.store(rt.cfg.profile == EmuProfile::ipc_uid, std::memory_order_relaxed);
  teams_init();
  contexts_init(world_team());
  publish_team_globals(world_team(), shared_team());
  static bool atexit_registered = false;
  if (!atexit_registered) atexit_registered = atexit(mark_exited_at_exit) == 0;
  rt.last_error.clear();
  rt.initialized.store(true, std::memory_order_release);
  debug_log(1, "initialized: PE %d of %d, heap %zu bytes", rt.my_pe, rt.n_pes, rt.heap_size);
  return 0;
}

void finalize() {
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> lock(rt.init_mutex);
  if (!rt.initialized.load()) {
    debug_log(1, "rocshmem_finalize: not initialized; ignored");
    return;
  }
  // OpenSHMEM: finalize is collective and completes all communication first.
  Collective call("rocshmem_finalize");
  team_barrier(world_team(), call);
  completion_finalize();
  report_suppressed();
  rt.pes[rt.my_pe].state.store(kPeFinalized, std::memory_order_release);
  rt.initialized.store(false, std::memory_order_release);
  publish_team_globals(nullptr, nullptr);
  teams_finalize();
  contexts_finalize();
  buffer_registry_clear();
  windows_revoke_all();
  symmetric_heap().reset(0);
  bootstrap_unmap_all();
  rt.my_pe = -1;
  rt.n_pes = 0;
}

}  // namespace rocshmem_emu
