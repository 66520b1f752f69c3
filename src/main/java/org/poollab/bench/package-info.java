/**
 * The orchestration, read as the pipeline: the entry point, the checks before anything
 * starts ({@code PreFlight}), then per database ({@code SweepMeasurement}) each
 * deployment ({@code Deployer}) and its topology run ({@code TopologyRun},
 * {@code AdaptiveEffort}), the confirmations of the decision, the SLO search
 * ({@code SloRun}), and the report ({@code Sweep}). Settings come from {@code settings},
 * what is printed goes through {@code console}; every stage below is used, none uses this
 * package.
 */
@NullMarked
package org.poollab.bench;

import org.jspecify.annotations.NullMarked;
