package org.poollab.bench.deciding;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Confirmation.ChosenAt;

/**
 * A deployment's recommended block, for the confirmation run.
 *
 * @param deployment the topology with its request threads when the sweep varied them,
 * e.g. {@code multi} or {@code single-virtual} ({@code Planned.deploymentLabel})
 * @param poolSize the block's {@code maximum-pool-size}
 * @param rateRps the rate the pool size was chosen at
 * @param yaml the block as {@code recommended-application.yml} will hold it, byte for
 * byte
 * @param chosenAt what the pool was chosen from, which the window is compared with (a
 * cold tail is measured again, {@link Confirmed#verdict}); {@code null} when nothing was
 */
public record Confirming(String deployment, int poolSize, int rateRps, String yaml, @Nullable ChosenAt chosenAt) {
}
