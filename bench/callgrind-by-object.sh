# Sourced by bench/instructions.sh and bench/stage-instructions.sh.
# by_object <callgrind file>: its instructions per shared object, as "<object> <count>"
# lines: the package's (its core and glue), R's, ICU's (the locale's text
# comparisons), the C library's, and other.
by_object() {
  callgrind_annotate --threshold=100 "$1" | awk '
    /PROGRAM TOTALS/ { next }
    match($0, /^ *[0-9,]+ \(/) {
      count = $1; gsub(",", "", count)
      object = "other"
      if (match($0, /\[[^]]*\]$/)) { object = substr($0, RSTART + 1, RLENGTH - 2); sub(/.*\//, "", object) }
      if (object ~ /^synthrisk/) object = "synthrisk"
      else if (object ~ /^libR\./) object = "R"
      else if (object ~ /^libicu/) object = "ICU"
      else if (object ~ /^libc\./) object = "C library"
      else object = "other"
      sum[object] += count
    }
    END { for (o in sum) print o, sum[o] }'
}
