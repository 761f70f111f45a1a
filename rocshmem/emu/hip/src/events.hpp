// Events: a record is a task on a stream that stamps the time when the stream reaches it.
#pragma once

#include <optional>

#include "stream_worker.hpp"

namespace hip_emu {

// The last record of `event` as a dependency (empty if never recorded).
// Returns false when `event` is not a live event.
bool event_dependency(hipEvent_t event, std::optional<Dependency>* recorded);

}  // namespace hip_emu
