/**
 * Deciding, between the results and the report: judges each cell, decision, confirmation
 * and SLO probe, and chooses a pool. The report turns its decisions into words and
 * pictures; it never decides.
 */
@NullMarked
package org.poollab.bench.deciding;

import org.jspecify.annotations.NullMarked;
