package org.poollab.bench.report;

import java.util.List;

/**
 * A table defined once and rendered twice, as Markdown and as HTML, so the two reports
 * cannot drift apart.
 *
 * @param caption what the table shows, with its unit
 * @param header column titles
 * @param rows the rows
 * @param numericFrom index of the first column holding numbers (right-aligned)
 * @param numericTo index after the last such column
 */
record Table(String caption, List<String> header, List<Row> rows, int numericFrom, int numericTo) {

	boolean numeric(int column) {
		return column >= this.numericFrom && column < this.numericTo;
	}

	/**
	 * @param entries one per column
	 * @param highlighted the row of the recommended pool size
	 */
	record Row(List<Entry> entries, boolean highlighted) {

	}

	/**
	 * @param text what the cell says
	 * @param href where it links to, relative to the run directory; null for none
	 * @param warning why the figure should not be taken at face value (the point did not
	 * sustain its rate); null when it should
	 */
	record Entry(String text, String href, String warning) {

		static Entry of(String text) {
			return new Entry(text, null, null);
		}

	}

}
