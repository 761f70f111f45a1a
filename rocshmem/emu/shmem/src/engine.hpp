// Everything the generated typed API (typed_api.cpp) forwards to.
#pragma once

#include "amo.hpp"
#include "collectives.hpp"
#include "context.hpp"
#include "p2p_sync.hpp"
#include "rma.hpp"
#include "stream_ops.hpp"
#include "profile.hpp"
