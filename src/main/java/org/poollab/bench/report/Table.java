package org.poollab.bench.report;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A table defined once and rendered twice, as Markdown and as HTML, so the two reports
 * cannot drift apart.
 *
 * @param caption what the table shows, with its unit
 * @param header column titles
 * @param rows the rows
 * @param numericFrom index of the first column holding numbers (right-aligned)
 * @param numericTo index after the last such column
 * @param notes what some columns mean, said under the table
 */
record Table(String caption, List<String> header, List<Row> rows, int numericFrom, int numericTo, List<String> notes) {

	Table(String caption, List<String> header, List<Row> rows, int numericFrom, int numericTo) {
		this(caption, header, rows, numericFrom, numericTo, List.of());
	}

	/**
	 * The same rows with only some columns, so that no table is wider than a laptop's
	 * screen.
	 * @param newCaption the part's caption
	 * @param titles the columns to keep, by title, in order: numeric ones first
	 * @param newNotes what its columns mean
	 */
	Table columns(String newCaption, List<String> titles, List<String> newNotes) {
		List<Integer> keep = titles.stream().map(this.header::indexOf).filter((index) -> index >= 0).toList();
		int numericCount = (int) keep.stream().filter(this::numeric).count();
		List<Row> kept = this.rows.stream()
			.map((row) -> new Row(keep.stream().map(row.entries()::get).toList(), row.highlighted()))
			.toList();
		return new Table(newCaption, keep.stream().map(this.header::get).toList(), kept, 0, numericCount, newNotes);
	}

	boolean numeric(int column) {
		return column >= this.numericFrom && column < this.numericTo;
	}

	/**
	 * The entries' footnotes, each once, in reading order; an entry's mark is its
	 * footnote's position here, counting from 1.
	 */
	List<String> footnotes() {
		return this.rows.stream()
			.flatMap((row) -> row.entries().stream())
			.map(Entry::footnote)
			.filter(Objects::nonNull)
			.distinct()
			.toList();
	}

	/** The entry's footnote number, 0 when it has none. */
	int footnoteNumber(Entry entry) {
		return (entry.footnote() != null) ? footnotes().indexOf(entry.footnote()) + 1 : 0;
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
	 * @param warning why the point did not sustain its rate (the cell is marked); null
	 * when it did
	 * @param footnote what the reader must know to read the figure (e.g. why an instance
	 * died, or that the latency is understated), said under the table; null for none
	 */
	record Entry(String text, @Nullable String href, @Nullable String warning, @Nullable String footnote) {

		static Entry of(String text) {
			return new Entry(text, null, null, null);
		}

		static Entry warned(String text, @Nullable String warning) {
			return new Entry(text, null, warning, null);
		}

		Entry withFootnote(@Nullable String note) {
			return new Entry(this.text, this.href, this.warning, note);
		}

	}

}
