#!/usr/bin/env bash
# A Spark standalone cluster on this machine for the database tests and the bench:
# a master, two workers and the Thrift JDBC server (HiveThriftServer2), every process
# on 127.0.0.1 only. Spark comes from the pyspark source package on PyPI (it holds
# Spark's jars and launch scripts); Java from Debian's openjdk-17-jre-headless.
#
#   tools/spark-cluster.sh install           # Spark into $SYNTHRISK_SPARK_HOME (cached)
#   tools/spark-cluster.sh start DIR         # start; DIR/thrift-port, DIR/pids, logs
#   tools/spark-cluster.sh stop DIR          # stop every process by its PID
#
# `install` runs from the shell (tools/setup.sh all, i.e. `make setup`), never from R:
# under R's LD_LIBRARY_PATH a python3 built with a shared libpython (pyenv's, say) may
# load the system's libpython instead and lose its ssl module and pip. So `start`, which
# the tests and the bench call from R, needs no python and never downloads.
set -euo pipefail

version=4.3.0
spark_home=${SYNTHRISK_SPARK_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/synthrisk/spark-$version}

spark_installed() {
  [ -x "$spark_home/bin/spark-class" ] && [ -d "$spark_home/jars" ]
}

install_spark() {
  spark_installed && return 0
  command -v java >/dev/null || { echo "spark-cluster: java is missing (apt-get install openjdk-17-jre-headless)" >&2; exit 1; }
  python3 -m pip --version >/dev/null 2>&1 || { echo "spark-cluster: python3 -m pip is missing (apt-get install python3-pip)" >&2; exit 1; }
  echo "spark-cluster: downloading Spark $version (pyspark $version from PyPI, about 460 MB) into $spark_home" >&2
  scratch=$(mktemp -d)
  python3 -m pip download --quiet --no-deps --no-binary :all: -d "$scratch" "pyspark==$version" >&2
  tar xzf "$scratch/pyspark-$version.tar.gz" -C "$scratch"
  mkdir -p "$(dirname "$spark_home")"
  rm -rf "$spark_home.partial"
  mv "$scratch/pyspark-$version/deps" "$spark_home.partial"
  mv "$spark_home.partial" "$spark_home"
  rm -rf "$scratch"
}

# A port on 127.0.0.1 (20000-31999, below Linux's ephemeral ports) that nothing listens
# on and that this script has not handed out yet, into the variable named $1. Probed
# with bash's /dev/tcp: no python (see above).
handed_out=" "
free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 12000))
    case "$handed_out" in *" $port "*) continue ;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      handed_out="$handed_out$port "
      printf -v "$1" '%s' "$port"
      return 0
    fi
  done
  echo "spark-cluster: found no free port on 127.0.0.1" >&2
  return 1
}

# Waits until `port` on 127.0.0.1 accepts connections, or fails after `seconds`.
wait_port() {
  local port=$1 seconds=$2 what=$3 log=$4
  for _ in $(seq 1 $((seconds * 5))); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "spark-cluster: $what did not start within $seconds s; the end of $log:" >&2
  tail -n 30 "$log" >&2
  return 1
}

start_cluster() {
  local dir=$1
  spark_installed || {
    echo "spark-cluster: Spark $version is not installed in $spark_home; run \`make setup\` (tools/setup.sh all) first" >&2
    exit 1
  }
  mkdir -p "$dir"
  export SPARK_HOME=$spark_home SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR=$dir/logs SPARK_CONF_DIR=$dir/conf
  mkdir -p "$SPARK_LOG_DIR" "$SPARK_CONF_DIR"
  # Quiet logs: only warnings, into files.
  cat > "$SPARK_CONF_DIR/log4j2.properties" <<'LOG'
rootLogger.level = warn
rootLogger.appenderRef.stdout.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
LOG
  local master_port master_ui thrift_port worker_ui
  free_port master_port; free_port master_ui; free_port thrift_port
  : > "$dir/pids"
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$master_port" \
    --webui-port "$master_ui" > "$dir/logs/master.log" 2>&1 &
  echo $! >> "$dir/pids"
  wait_port "$master_port" 120 "the master" "$dir/logs/master.log"
  for w in 1 2; do
    free_port worker_ui
    SPARK_WORKER_DIR=$dir/worker$w "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker \
      --host 127.0.0.1 --cores 1 --memory "${SYNTHRISK_SPARK_WORKER_MEMORY:-3g}" --webui-port "$worker_ui" \
      "spark://127.0.0.1:$master_port" > "$dir/logs/worker$w.log" 2>&1 &
    echo $! >> "$dir/pids"
  done
  # The Thrift server is the cluster's driver: its executors run on the two workers.
  (cd "$dir" && exec "$SPARK_HOME/bin/spark-submit" --master "spark://127.0.0.1:$master_port" \
    --class org.apache.spark.sql.hive.thriftserver.HiveThriftServer2 --name synthrisk-thrift \
    --driver-memory "${SYNTHRISK_SPARK_DRIVER_MEMORY:-2g}" \
    --executor-memory "${SYNTHRISK_SPARK_EXECUTOR_MEMORY:-2g}" --executor-cores 1 --total-executor-cores 2 \
    --conf spark.ui.enabled=false --conf spark.sql.shuffle.partitions=4 \
    --conf "spark.sql.warehouse.dir=$dir/warehouse" \
    --conf "spark.driver.extraJavaOptions=-Dderby.system.home=$dir/derby" \
    --hiveconf "hive.server2.thrift.bind.host=127.0.0.1" --hiveconf "hive.server2.thrift.port=$thrift_port" \
    spark-internal > "$dir/logs/thrift.log" 2>&1) &
  echo $! >> "$dir/pids"
  wait_port "$thrift_port" 240 "the Thrift server" "$dir/logs/thrift.log"
  echo "$master_port" > "$dir/master-port"
  echo "$master_ui" > "$dir/master-ui-port"
  echo "$thrift_port" > "$dir/thrift-port"
  echo "$spark_home" > "$dir/spark-home"
}

stop_cluster() {
  local dir=$1
  [ -f "$dir/pids" ] || return 0
  # The Thrift server (the driver) first, then the workers, then the master.
  for pid in $(tac "$dir/pids"); do
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -f "$dir/pids"
}

case "${1:-}" in
  install) install_spark; echo "$spark_home" ;;
  start) [ -n "${2:-}" ] || { echo "usage: $0 start DIR" >&2; exit 2; }; start_cluster "$2" ;;
  stop) [ -n "${2:-}" ] || { echo "usage: $0 stop DIR" >&2; exit 2; }; stop_cluster "$2" ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
