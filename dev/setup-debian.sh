#!/bin/bash
# Installs what the build needs on Debian 12 (only what is missing; needs root or sudo); with --tests also what
# the test command needs (Open MPI and Slurm for the launch tests, debootstrap for the hipcc compile path).
# Never installs HIP: cppbuild.sh extracts it from Debian's archive into the build tree.
set -eu

need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v nm >/dev/null 2>&1 || need+=(binutils)
command -v git >/dev/null 2>&1 || need+=(git)
if [[ "${1:-}" == "--tests" ]]; then
    command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)   # the mpirun launch test
    # the hipcc compile path (dev/check-real-variant.sh builds a Debian sid root holding ROCm's hipcc)
    [[ -x /usr/sbin/debootstrap ]] || command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
    # the srun launch test (dev/slurm-test.sh): a one-node Slurm started by the test
    for tool in slurmctld slurmd srun munged; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            need+=(slurmctld slurmd slurm-client munge)
            break
        fi
    done
fi
[[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] || need+=(debian-archive-keyring)
[[ -d /etc/ssl/certs ]] || need+=(ca-certificates)

if [[ ${#need[@]} -gt 0 ]]; then
    echo "Installing: ${need[*]}"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
