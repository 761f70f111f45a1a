package org.rocshmem.bench.report;

/** The facts of a run the report's header gives: when, which commit, the load, whether it was a smoke run. */
record RunInfo(String date, String commit, String loadStart, String loadEnd, boolean smoke) {
}
