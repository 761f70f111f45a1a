// The public rocSHMEM declarations (header twin) with default visibility; everything else of
// the emulator stays hidden (-fvisibility=hidden). HIP and the standard library are included
// first so the visibility push only covers rocSHMEM's own declarations.
#pragma once

#include <hip/hip_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#pragma GCC visibility push(default)
// The library defines the MPI_Comm overloads too. Their declarations sit behind
// `#if defined(MPI_VERSION)`; as in a build without <mpi.h>, the twin's Open-MPI-shaped shim
// supplies MPI_Comm (so the symbols mangle as ompi_communicator_t*), and MPI_VERSION opens the guard.
#include <rocshmem/rocshmem_mpi.hpp>
#ifndef MPI_VERSION
#define MPI_VERSION 3
#endif
#include <rocshmem/rocshmem.hpp>
#include <rocshmem/api_trace.h>
#include <rocshmem/qp_introspect.hpp>
#pragma GCC visibility pop

#define ROCSHMEM_EMU_API __attribute__((visibility("default")))
