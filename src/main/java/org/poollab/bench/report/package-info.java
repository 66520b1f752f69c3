/**
 * Report: renders the decisions as the recommended {@code spring.datasource.hikari.*}
 * block, and the Markdown and HTML reports.
 */
@NullMarked
package org.poollab.bench.report;

import org.jspecify.annotations.NullMarked;
