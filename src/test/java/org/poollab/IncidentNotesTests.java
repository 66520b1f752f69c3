package org.poollab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Main code's comments carry contracts and reasons, not incident notes: the history of a
 * measurement or a fix lives on src/site/markdown/measurements.md and
 * measurements-archive.md, and a comment that needs its figure points there.
 */
class IncidentNotesTests {

	@Test
	void mainCodeCommentsCarryNoIncidentNotes() {
		assertThat(IncidentNotes.in(Path.of("src", "main", "java")))
			.as("incident notes in src/main/java comments (file:line: what): keep the reason, move the history to "
					+ "src/site/markdown/measurements-archive.md")
			.isEmpty();
	}

	@Test
	void aPlantedNoteIsCaughtWithItsFileAndLineEvenAcrossALineBreak(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("Planted.java"), """
				package planted;

				/**
				 * Holds the pool. Measured on the next
				 * session's machine, 2026-11-28 (issue 45).
				 */
				class Planted {

					// fixed in 3b0faed, as the issue asks
					int pool;

				}
				""");
		assertThat(IncidentNotes.inFile(file, Files.readString(file))).map(IncidentNotes.Note::toString)
			.containsExactly(file + ":4: a session: \"next session\"",
					file + ":4: a machine named by when it was used: \"next session's machine\"",
					file + ":5: a date: \"2026-11-28\"",
					file + ":5: an issue number (cite an upstream one by its link): \"issue 45\"",
					file + ":9: the issue's wording: \"the issue asks\"", file + ":9: a commit: \"3b0faed\"");
	}

	@Test
	void stringsTextBlocksLinksAndTheReasonsThemselvesAreNotNotes(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("Clean.java"), """
				package planted;

				/**
				 * Resized while the load runs, so the window proves its size (see {@link Pool#resize}):
				 * reactor-netty's "HTTP/1.1 keep-alive can hang"
				 * (https://github.com/reactor/reactor-netty/issues/4188). Measured on this box.
				 */
				class Clean {

					String when = "2026-11-28 // not a comment, issue 45";

					char quote = '"';

					String block = \"""
							/* 2026-11-28, the next session's machine */
							\""";

					int hex = 0x7fffffff; // a session-level lock; 0x7fffffff

				}
				""");
		assertThat(IncidentNotes.inFile(file, Files.readString(file))).isEmpty();
	}

}
