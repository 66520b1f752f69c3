/**
 * An independent open-loop load generator, to cross-check JMeter's latency figures.
 */
@NullMarked
package org.poollab.crosscheck;

import org.jspecify.annotations.NullMarked;
