#!/usr/bin/env bash
# Exercise scripts/slurm/cowrex-array.sbatch on a real single-node Slurm cluster (Debian's
# slurm-wlm, installed when missing; needs root): start munged, slurmctld and slurmd with a
# throw-away configuration, and check two runs of a 5-file manifest (WARC, ARC and .warc.zst
# files, scripts/engine_common.sh):
#  1. a 2-task job array: `cowrex status` reports every input done, and the outputs equal a
#     single-process run;
#  2. a task reading its inputs over HTTP (a slow loopback server) gets SIGUSR1 in the middle
#     of an input, as before a time limit: cowrex stops with exit code 75, the script
#     requeues the task, and the requeued task skips the finished inputs and completes the run.
#
#   scripts/slurm/local-cluster.sh [COWREX_BINARY]
#
# The daemons are stopped at the end. Exit code 0 when every check passed.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/engine_common.sh
cowrex=$(cowrex_binary "${1:-}")

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/cowrex-slurm.XXXXXX)
export SLURM_CONF=$work/slurm.conf
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work"/{state,spool,log,munge}

# munge: a key of our own and a socket in the work directory.
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
daemons=()
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${passed:-0}" = 1 ] && [ -z "${COWREX_KEEP:-}" ]; then rm -rf "$work"; else echo "logs and outputs kept in $work" >&2; fi
}
trap cleanup EXIT
chmod 755 "$work"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed" >"$work/log/munged.out" 2>&1 &
daemons+=($!)
for _ in $(seq 50); do [ -S "$work/munge/socket" ] && break; sleep 0.1; done

cat >"$SLURM_CONF" <<CONF
ClusterName=cowrex-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

if ps -C slurmctld,slurmd -o stat= | grep -qv '^Z'; then
  echo "a Slurm daemon is already running on this machine; stop it first" >&2
  exit 1
fi
slurmctld -D -i >"$work/log/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D >"$work/log/slurmd.out" 2>&1 &
daemons+=($!)
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o "%P %D %T" | grep -q idle || { echo "slurm did not come up:"; tail -n 20 "$work"/log/*.log; exit 1; }

base=$work/base
make_crawl "$base" | gzip >"$work/warc.paths.gz"

# submit ARRAY LOG OUT BASE [sbatch options]: the array script over the manifest; prints the job id.
submit() {
  local array=$1 log=$2 dir=$3 input_base=$4
  shift 4
  COWREX=$cowrex sbatch --parsable --array="$array" --cpus-per-task=1 --mem-per-cpu=0 --time=10 \
    --output="$work/log/$log-%A_%a.log" --chdir="$work" "$@" \
    scripts/slurm/cowrex-array.sbatch "$work/warc.paths.gz" "$dir" --input-base "$input_base"
}

out=$work/out
job=$(submit 0-1 task "$out" "$base")
echo "submitted job array $job"
for _ in $(seq 300); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 1
done
cat "$work"/log/task-*.log

status=$("$cowrex" status --manifest "$work/warc.paths.gz" --input-base "$base" --out "$out")
echo "cowrex status: $status"
[ "$status" = "5 inputs: 5 done, 0 failed, 0 missing" ] || { echo "FAIL: not all inputs done"; exit 1; }

# The same manifest in one process gives the same corpus files.
"$cowrex" process --no-progress --manifest "$work/warc.paths.gz" --input-base "$base" -o "$work/single" 2>/dev/null
same_corpus "$work/single" "$out"
echo "OK: the Slurm job array processed the manifest end to end ($(cd "$out" && find . -name '*.done.json' | wc -l) inputs done)"

# 2. Stopped before a time limit, requeued, finished.
python3 scripts/check/slow_http.py "$base" "$work/port" 40000 &
server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")/"
out2=$work/out2
job=$(submit 0 requeue "$out2" "$url" --open-mode=append)
echo "submitted job $job (inputs over HTTP at 40 kB/s)"
for _ in $(seq 600); do
  [ -n "$(find "$out2" -name '*.done.json' 2>/dev/null)" ] && break
  sleep 0.1
done
sleep 1
done_before=$(find "$out2" -name '*.done.json' | wc -l)
echo "$done_before inputs done; sending SIGUSR1 to the job's steps"
scancel --signal=USR1 "$job"
started=
for _ in $(seq 600); do
  state=$(squeue -h -j "$job" -o "%T %r" 2>/dev/null)
  [ -z "$state" ] && break
  # Slurm holds a requeued job for two minutes (its begin time); here it may start sooner,
  # but not within the second in which the first run ended: slurmd compares credential times
  # in whole seconds, takes a new credential from that second for a revoked one and refuses
  # to launch the job ("Job N already killed, do not launch batch job").
  if [ "$state" = "PENDING BeginTime" ] && [ -z "$started" ]; then
    echo "requeued; starting it in 2 seconds instead of in two minutes"
    scontrol update JobId="$job" StartTime=now+2
    started=1
  fi
  sleep 0.5
done
cat "$work"/log/requeue-*.log
grep -q "stopped by a signal" "$work"/log/requeue-*.log || { echo "FAIL: cowrex was not stopped by the signal"; exit 1; }
grep -q "requeueing" "$work"/log/requeue-*.log || { echo "FAIL: the task was not requeued"; exit 1; }
grep -q "inputs were done before with this configuration, skipped" "$work"/log/requeue-*.log \
  || { echo "FAIL: the requeued task did not skip the finished inputs"; exit 1; }
status=$("$cowrex" status --manifest "$work/warc.paths.gz" --input-base "$url" --out "$out2")
echo "cowrex status: $status"
[ "$status" = "5 inputs: 5 done, 0 failed, 0 missing" ] || { echo "FAIL: not all inputs done"; exit 1; }
[ -z "$(find "$out2" -name '.*')" ] || { echo "FAIL: temporary files left"; exit 1; }
same_corpus "$work/single" "$out2"
echo "OK: stopped by SIGUSR1 after $done_before inputs, requeued, and completed with the same outputs"
passed=1
