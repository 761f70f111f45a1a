#!/bin/bash
# srun as a first-class launcher, proven with a real Slurm: starts munged, slurmctld and slurmd on this machine
# (a one-node cluster with a private configuration in a temporary directory, unusual ports), runs a 2-PE sample
# with `srun -n 2 java ...` (no project launcher: the PEs read SLURM_PROCID/NTASKS/LOCALID/node list), checks
# that both PEs verified their data, then runs a job of 2 simulated nodes x 2 PEs and checks what each PE saw of
# its node, and stops every daemon it started. Needs root (CI runs as root) and the
# packages dev/setup-debian.sh installs (slurmctld, slurmd, slurm-client, munge).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ $(id -u) -ne 0 ]]; then
    echo "slurm-test: needs root to start slurmd and munged" >&2
    exit 1
fi
for tool in munged slurmctld slurmd srun sinfo; do
    command -v "$tool" >/dev/null || { echo "slurm-test: $tool missing (run dev/setup-debian.sh)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/rocshmem-slurm.XXXXXX)
node=$(hostname -s)
started_munge=""
cleanup() {
    for daemon in slurmd slurmctld; do
        [[ -f "$work/$daemon.pid" ]] && kill "$(cat "$work/$daemon.pid")" 2>/dev/null || true
    done
    [[ -n "$started_munge" ]] && pkill -x munged 2>/dev/null || true
    sleep 1
    rm -rf "$work"
}
trap cleanup EXIT

# munge: the package made a key; its run and log directories must belong to the munge user
if ! pgrep -x munged >/dev/null; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown -R munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge
    su -s /bin/sh munge -c munged
    started_munge=yes
fi
munge -n | unmunge >/dev/null

mkdir -p "$work/spool" "$work/state"
cat > "$work/slurm.conf" <<CONF
ClusterName=rocshmemci
SlurmctldHost=$node(127.0.0.1)
AuthType=auth/munge
CryptoType=crypto/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmUser=root
SlurmdUser=root
SchedulerType=sched/builtin
SelectType=select/linear
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldPort=46817
SlurmdPort=46818
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$node"
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 0.5
done
sinfo -h -o %T | grep -q idle || { echo "slurm-test: the node never became idle" >&2; tail -n 20 "$work"/*.log >&2; exit 1; }

# what a real job script does: a random secret for the rendezvous, shared by srun's environment
export ROCSHMEM_BOOTSTRAP_SECRET=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
classpath=$("$top/samples/run.sh" --classpath) || { echo "slurm-test: cannot build the samples" >&2; exit 1; }
output=$(srun -n 2 --kill-on-bad-exit=1 --time=5 \
    java -Dorg.bytedeco.javacpp.platform.extension=-emu -cp "$classpath" org.rocshmem.samples.RingExchange 2>&1) \
    || { echo "$output"; echo "slurm-test: srun failed" >&2; exit 1; }
echo "$output"
[[ $(grep -c "verified" <<<"$output") -eq 2 ]] || { echo "slurm-test: expected 2 verified PEs" >&2; exit 1; }
echo "slurm-test: srun -n 2 ran RingExchange under a real Slurm ($(srun --version))"

# Two simulated nodes of two PEs. One slurmd does run `-n 4 --ntasks-per-node=2 --overcommit` and sets
# SLURM_NTASKS_PER_NODE=2, but all 4 tasks are on its one node, so SLURM_LOCALID is 0..3 and the bootstrap rightly
# refuses LOCAL_RANK=2 with LOCAL_WORLD_SIZE=2. So the job sets the emulator's own node size instead. The PE program
# is the one of SimulatedNodesTest, run from its source; each line is checked for every PE.
nodes_pe="$top/rocshmem/src/test/java/org/rocshmem/api/launch/SimulatedNodesPe.java"
output=$(ROCSHMEM_EMU_PES_PER_NODE=2 srun -n 4 --overcommit --label --kill-on-bad-exit=1 --time=5 \
    java -Dorg.bytedeco.javacpp.platform.extension=-emu -cp "$classpath" "$nodes_pe" 2>&1) \
    || { echo "$output"; echo "slurm-test: srun of 2 simulated nodes failed" >&2; exit 1; }
echo "$output"
for pe in 0 1 2 3; do
    first=$((pe / 2 * 2))
    direct=$([[ $first -eq 0 ]] && echo 1,1,0,0 || echo 0,0,1,1)
    counter=$([[ $pe -eq 0 || $pe -eq 3 ]] && echo 15 || echo 0)
    for line in "shared=$first,$((first + 1)) index=$((pe % 2))" "direct=$direct" \
            "split=$first,$((first + 1)) sum=$((2 * first + 1))" "put=$((100 + (pe + 2) % 4)) counter=$counter sum=10"; do
        grep -qxF "$pe: $line" <<<"$output" \
            || { echo "slurm-test: PE $pe did not print '$line'" >&2; exit 1; }
    done
done
echo "slurm-test: srun -n 4 ran 2 simulated nodes x 2 PEs (ROCSHMEM_EMU_PES_PER_NODE=2): SHARED, rocshmem_ptr, split, RMA, atomics and a reduction checked"
