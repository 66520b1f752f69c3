/**
 * The console room: what a running sweep prints besides its orchestration's own lines,
 * point i of N with its figures and the ETA ({@link org.poollab.bench.console.Progress}),
 * the paper's tables of max / p99 per pool and rate
 * ({@link org.poollab.bench.console.ConsoleTables}), and where the sweep's time went
 * ({@link org.poollab.bench.console.TimeAccount}). It renders what the stages below it
 * measured and decided; it never decides.
 */
@NullMarked
package org.poollab.bench.console;

import org.jspecify.annotations.NullMarked;
