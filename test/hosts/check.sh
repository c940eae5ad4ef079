# Sourced by the host recipes' tests (test/hosts/*.sh): counts checks and
# prints a FAIL line for each that fails; `finish` prints the RESULT line
# test/run.sh reads and exits with the outcome.
passed=0
failed=0
# check NAME GOT WANT: passes when GOT is WANT.
check() {
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else echo "FAIL $1: got '$2', want '$3'"; failed=$((failed + 1)); fi
}
finish() {
  echo "RESULT passed=$passed failed=$failed skipped=0"
  [ "$failed" -eq 0 ]
  exit $?
}
