package org.poollab.bench;

import java.io.PrintStream;
import java.util.Optional;

import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Question;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.settings.BenchProperties;

/**
 * What a sweep was asked, checked before anything starts, and where it runs: the sweep
 * and its measuring both read it, neither the other.
 *
 * @param grid the grid the settings ask for
 * @param question the team's question, when {@code bench.targetRps} asks one: then the
 * SLO search runs instead of the grid
 * @param properties the settings as bound
 * @param paths where JMeter and the service's classpath are
 * @param out the console
 */
record SweepSetup(Grid grid, Optional<Question> question, BenchProperties properties, LabPaths paths, PrintStream out) {
}
