/**
 * The settings room: the {@code bench.*} settings bound from the one {@code bench} prefix
 * ({@link org.poollab.bench.settings.BenchProperties}), each setting's facts
 * ({@link org.poollab.bench.settings.BenchSetting}), the refusal of a bad or unknown one
 * with a "did you mean", and the checks that turn the settings into the grid, the team's
 * question and the external target before anything starts. It reads the stages below it
 * and never the orchestration that uses it.
 */
@NullMarked
package org.poollab.bench.settings;

import org.jspecify.annotations.NullMarked;
