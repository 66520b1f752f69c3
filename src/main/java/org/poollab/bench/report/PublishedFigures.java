package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;

/**
 * The figures the source texts (src/site/markdown/presets.md, "References") published,
 * shown when a run's preset reproduces a source's experiment: each table right after our
 * own tables of the topology it matches (the paper's Tables I–II after our single
 * instance, III–IV after our three instances), or at the end when it matches none we
 * measured. They were measured by others on other set-ups, so they sit in tables of their
 * own, labelled with their source, and never reach our tables or the recommendation. The
 * figures are data, not code: {@code published-figures.json} beside this class holds
 * every source with its citation (authors, year, link), its set-up, and each table as the
 * source printed it (copied from the source text itself, not from the docs; where a
 * figure needed a decision, the table's {@code provenance} says which).
 */
final class PublishedFigures {

	/** Said with every source, so no one mistakes its figures for ours. */
	static final String LABEL = "Published figures from this source, measured on its set-up, not by this lab: "
			+ "for comparison only, they take no part in the recommendation.";

	/** Every source, by its short name, in the data file's order. */
	private static final Map<String, Source> SOURCES = load("published-figures.json");

	/**
	 * The JOIV paper "A Study of Database Connection Pool in Microservice Architecture"
	 * (Nor Sobri et al., 2022).
	 */
	static final Source JOIV = source("joiv-2022");

	/** The blog post "Sizing connection pool" (limvik, 2023, in Korean). */
	static final Source BLOG = source("limvik-2023");

	/** Kamal Mahmud, "Configuring Connection Pooling with Spring R2DBC" (2022). */
	static final Source R2DBC = source("mahmud-2022");

	/**
	 * "Improve database performance with connection pooling" (Stack Overflow blog, 2020).
	 */
	static final Source PGBOUNCER = source("stackoverflow-2020");

	/** Vlad Mihalcea, "The anatomy of Connection Pooling" (2014). */
	static final Source ANATOMY = source("mihalcea-2014");

	private PublishedFigures() {
	}

	/** A source the data file must hold: the constants above name them. */
	private static Source source(String key) {
		return Objects.requireNonNull(SOURCES.get(key), () -> "published-figures.json has no " + key);
	}

	/**
	 * The figures as the data file holds them.
	 *
	 * @param sources every source
	 */
	private record Data(List<SourceData> sources) {
	}

	/**
	 * @param citation authors, year and link, as the References in
	 * src/site/markdown/presets.md give them
	 */
	private record SourceData(String key, String title, String byline, String note, Citation citation,
			List<TableData> tables) {
	}

	/**
	 * Where a source can be found.
	 *
	 * @param authors its authors (or publisher)
	 * @param year the year it was published
	 * @param link where it is
	 */
	record Citation(String authors, int year, String link) {
	}

	/**
	 * @param topology the topology of ours it compares with, null for none
	 * @param provenance where in the source the figures are, and any decision taken
	 * reading them (not shown)
	 * @param rows each row's cells as the source printed them
	 */
	private record TableData(String topology, String caption, String provenance, List<String> header, int numericFrom,
			int numericTo, List<String> notes, List<List<String>> rows) {
	}

	private static Map<String, Source> load(String resource) {
		try (InputStream in = PublishedFigures.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("The lab's published figures are missing: no " + resource);
			}
			Data data = JsonMapper.builder().build().readValue(in, Data.class);
			Map<String, Source> sources = new LinkedHashMap<>();
			for (SourceData source : data.sources()) {
				List<Published> tables = source.tables()
					.stream()
					.map((table) -> new Published(table.topology(),
							new Table(table.caption(), table.header(),
									table.rows()
										.stream()
										.map((cells) -> new Row(cells.stream().map(Entry::of).toList(), false))
										.toList(),
									table.numericFrom(), table.numericTo(),
									(table.notes() != null) ? table.notes() : List.of())))
					.toList();
				sources.put(source.key(), new Source(source.key(), source.title(), source.byline(), source.note(),
						source.citation(), tables));
			}
			return sources;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The lab's published figures could not be read: " + resource, ex);
		}
	}

	/**
	 * The sources a preset reproduces, in the order the report shows them: for
	 * {@code pooling}, the acquire-cost article first, right after our own acquire-cost
	 * section; {@code reactive} reproduces the R2DBC article.
	 * @param preset the run's preset, may be null for old results
	 * @return the sources, empty for a preset of our own
	 */
	static List<Source> forPreset(String preset) {
		if (preset == null) {
			return List.of();
		}
		return switch (preset.toLowerCase(Locale.ROOT)) {
			case "paper" -> List.of(JOIV);
			case "blog" -> List.of(BLOG);
			case "pooling" -> List.of(ANATOMY, R2DBC, PGBOUNCER);
			case "reactive" -> List.of(R2DBC);
			default -> List.of();
		};
	}

	/**
	 * Where each published table goes: after the first section of the topology it
	 * matches, else at the end. Sources keep the order of {@link #forPreset(String)}.
	 * @param preset the run's preset
	 * @param sections our sections, in report order
	 * @return the placement
	 */
	static Placement place(String preset, List<Section> sections) {
		Map<Section, List<Block>> bySection = new LinkedHashMap<>();
		Map<Source, List<Table>> atEnd = new LinkedHashMap<>();
		for (Source source : forPreset(preset)) {
			Map<Section, List<Table>> mine = new LinkedHashMap<>();
			for (Published published : source.tables()) {
				// The R2DBC article measured the reactive stack: beside the twin's
				// section
				// when there is one.
				Optional<Section> section = sections.stream()
					.filter((candidate) -> candidate.grid().topology().equals(published.topology()))
					.min(Comparator
						.comparing((Section candidate) -> (source == R2DBC) != RecommendedYaml.reactive(candidate)));
				if (section.isPresent()) {
					mine.computeIfAbsent(section.get(), (key) -> new ArrayList<>()).add(published.table());
				}
				else {
					atEnd.computeIfAbsent(source, (key) -> new ArrayList<>()).add(published.table());
				}
			}
			mine.forEach((section, tables) -> bySection.computeIfAbsent(section, (key) -> new ArrayList<>())
				.add(new Block(source, tables, section.grid().key())));
		}
		// The source's set-up is told once, where a reader meets it first.
		Set<Source> told = new HashSet<>();
		Map<Section, List<Block>> placed = new LinkedHashMap<>();
		for (Section section : sections) {
			List<Block> blocks = bySection.getOrDefault(section, List.of())
				.stream()
				.map((block) -> block.told(!told.add(block.source())))
				.toList();
			placed.put(section, blocks);
		}
		List<Block> end = new ArrayList<>();
		atEnd.forEach((source, tables) -> end.add(new Block(source, tables, null).told(!told.add(source))));
		return new Placement(placed, end);
	}

	static void markdown(StringBuilder md, Block block) {
		Source source = block.source();
		md.append((block.topologyKey() != null) ? "### " : "\n## ")
			.append("Published figures: ")
			.append(source.title())
			.append("\n\n");
		md.append('*')
			.append(source.byline())
			.append(".* <")
			.append(source.citation().link())
			.append("> ")
			.append(LABEL)
			.append("\n\n");
		md.append(block.toldAbove() ? SEE_ABOVE : source.note()).append("\n\n");
		for (Table table : block.tables()) {
			MarkdownReport.table(md, table);
		}
	}

	static void html(StringBuilder html, Block block) {
		Source source = block.source();
		String topologyKey = block.topologyKey();
		boolean inSection = topologyKey != null;
		html.append("<section class=\"published\" id=\"published-")
			.append(source.key())
			.append((topologyKey != null) ? "-" + HtmlReport.escape(topologyKey) : "")
			.append("\">\n")
			.append(inSection ? "<h3>" : "<h2>")
			.append("Published figures: ")
			.append(HtmlReport.escape(source.title()))
			.append(inSection ? "</h3>" : "</h2>")
			.append("\n<p class=\"meta\">")
			.append(HtmlReport.escape(source.byline()))
			.append(" <a href=\"")
			.append(HtmlReport.escape(source.citation().link()))
			.append("\">")
			.append(HtmlReport.escape(source.citation().link()))
			.append("</a> <span class=\"flag\">published figures, for comparison only</span></p>\n<p class=\"note\">")
			.append(HtmlReport.escape(LABEL + " " + (block.toldAbove() ? SEE_ABOVE : source.note())))
			.append("</p>\n<div class=\"paper-tables\">\n");
		for (Table table : block.tables()) {
			HtmlReport.table(html, table, "grid published-table");
		}
		html.append("</div>\n</section>\n");
	}

	/** Said where a source's set-up was told with its earlier tables. */
	static final String SEE_ABOVE = "Its set-up, and why its milliseconds cannot match ours, are described with "
			+ "its first tables above.";

	/**
	 * One source text and its figures.
	 *
	 * @param key the source's short name, its key in the report's HTML anchors, e.g.
	 * {@code joiv-2022} in {@code published-joiv-2022}
	 * @param title the text's title
	 * @param byline author and venue as the text gives them
	 * @param note the set-up the figures were measured on, as the text describes it, and
	 * why ours differ
	 * @param citation authors, year and link
	 * @param tables its figures
	 */
	record Source(String key, String title, String byline, String note, Citation citation, List<Published> tables) {
	}

	/**
	 * One published table and the topology of ours it compares with.
	 *
	 * @param topology {@code single}, {@code multi} or {@code pgbouncer}; null for none
	 * (shown at the end)
	 * @param table the figures
	 */
	record Published(String topology, Table table) {
	}

	/**
	 * A source's tables in one place of the report.
	 *
	 * @param source the source
	 * @param tables its tables placed here
	 * @param topologyKey the section they follow ({@link TopologyGrid#key()}); null at
	 * the end
	 * @param toldAbove whether the source's set-up was already described above
	 */
	record Block(Source source, List<Table> tables, @Nullable String topologyKey, boolean toldAbove) {

		Block(Source source, List<Table> tables, @Nullable String topologyKey) {
			this(source, tables, topologyKey, false);
		}

		Block told(boolean above) {
			return new Block(this.source, this.tables, this.topologyKey, above);
		}

	}

	/**
	 * @param bySection the blocks after each of our sections (possibly none)
	 * @param atEnd the blocks whose topology we did not measure, or that match none
	 */
	record Placement(Map<Section, List<Block>> bySection, List<Block> atEnd) {

		List<Block> after(Section section) {
			return this.bySection.getOrDefault(section, List.of());
		}

	}

}
