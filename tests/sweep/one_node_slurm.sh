#!/usr/bin/env bash
# one_node_slurm.sh: a real one-node Slurm cluster on this machine, for testing
# `ptxsim sweep --on=slurm` against the scheduler itself (tests/suites/sweep.sh), or for trying
# it by hand. Debian's slurmctld, slurmd and munge (`make deps` installs them) run from a
# folder of their own: configuration, munge key, state, spool and logs all live there, the
# daemons listen on 127.0.0.1 only, on two free ports, and `stop` ends every one of them.
#
# usage: one_node_slurm.sh start DIR    start the cluster; prints `export SLURM_CONF=...`
#        one_node_slurm.sh stop DIR     stop it (DIR stays, with the logs)
#
# What makes it work in a container without systemd or cgroups: ProctrackType=proctrack/
# linuxproc (processes found through /proc, no cgroup), TaskPlugin=task/none, no accounting,
# SlurmUser and SlurmdUser the user who starts it (root in CI), munged started with --force
# and a generated key, CommunicationParameters=NoCtldInAddrAny,NoInAddrAny so that the
# daemons bind the node's address (127.0.0.1) instead of every address, and
# batch_sched_delay=0 / sched_min_interval=0 so that a job array is scheduled at once rather
# than in batches every few seconds.
set -u

die() { echo "one_node_slurm.sh: $*" >&2; exit 1; }
# A start that fails halfway stops what it had started.
fail_start() { echo "one_node_slurm.sh: $*" >&2; stop; exit 1; }

[ $# -eq 2 ] || die "usage: one_node_slurm.sh start|stop DIR"
cmd=$1
dir=$2
node=ptxsim-node

free_port() {
    local p tries
    for tries in $(seq 1 200); do
        p=$((20000 + RANDOM % 30000))
        [ "$p" = "${1:-}" ] && continue
        # a port nobody listens on refuses the connection
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

start() {
    local bin
    for bin in munged slurmctld slurmd sinfo sbatch; do
        command -v "$bin" >/dev/null 2>&1 || [ -x "/usr/sbin/$bin" ] ||
            die "$bin is not installed (make deps installs slurmctld, slurmd, slurm-client and munge)"
    done
    export PATH=$PATH:/usr/sbin
    mkdir -p "$dir" || die "cannot create $dir"
    dir=$(cd "$dir" && pwd)
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
    chmod 700 "$dir/munge"
    # munged insists on a private key file and a socket directory only its user can write.
    head -c 1024 /dev/urandom >"$dir/munge/munge.key"
    chmod 400 "$dir/munge/munge.key"
    munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed" || fail_start "munged did not start (see $dir/munge/munged.log)"

    local user host cpus mem ctld_port slurmd_port
    user=$(id -un)
    host=$(hostname -s)
    cpus=$(nproc)
    # Half of the memory, so that --mem requests are checked against something real.
    mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 2048 }' /proc/meminfo)
    ctld_port=$(free_port) || fail_start "no free port"
    slurmd_port=$(free_port "$ctld_port") || fail_start "no free port"
    cat >"$dir/slurm.conf" <<EOF
# A one-node cluster for ptxsim's tests (tests/sweep/one_node_slurm.sh).
ClusterName=ptxsim-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -f "$SLURM_CONF" -i || fail_start "slurmctld did not start (see $dir/log/slurmctld.log)"
    slurmd -f "$SLURM_CONF" -N "$node" || fail_start "slurmd did not start (see $dir/log/slurmd.log)"
    local i state
    for i in $(seq 1 150); do
        state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
        [ "$state" = idle ] && break
        sleep 0.2
    done
    [ "$state" = idle ] || fail_start "the node did not become idle (state '$state'; see $dir/log)"
    echo "export SLURM_CONF=$SLURM_CONF"
}

# Waits up to $2 tenths of a second for the process in pid file $1 to end; kills it after.
end_pid() {
    local pidfile=$1 tenths=$2 pid i
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile" 2>/dev/null)
    [ -n "$pid" ] || return 0
    for i in $(seq 1 "$tenths"); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
    return 0
}

stop() {
    export PATH=$PATH:/usr/sbin
    if [ -f "$dir/slurm.conf" ]; then
        SLURM_CONF=$dir/slurm.conf scontrol shutdown >/dev/null 2>&1
        end_pid "$dir/slurmd.pid" 100
        end_pid "$dir/slurmctld.pid" 100
    fi
    if [ -S "$dir/munge/munge.socket" ]; then
        munged --stop --socket="$dir/munge/munge.socket" >/dev/null 2>&1
    fi
    end_pid "$dir/munge/munged.pid" 50
}

case $cmd in
    start) start ;;
    stop) stop ;;
    *) die "usage: one_node_slurm.sh start|stop DIR" ;;
esac
