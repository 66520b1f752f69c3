package org.poollab.vendor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

import org.jspecify.annotations.Nullable;

/**
 * The removal of the embedded MariaDB's directory, safe against a second remover of the
 * same tree (a shutdown hook and a {@code close()} at once).
 */
final class DirectoryRemoval {

	/**
	 * Attempts at removing the directory: a later one removes what appeared while an
	 * earlier one was deleting.
	 */
	private static final int DELETE_ATTEMPTS = 5;

	private DirectoryRemoval() {
	}

	/**
	 * Removes a directory and everything in it, whoever else removes some of it at the
	 * same time (a file already gone is no failure), and again when something appeared in
	 * it while it was being removed (the directory is then not empty at the end).
	 * @param directory the directory, which may be gone already
	 * @throws IOException what the last attempt failed on
	 */
	static void deleteDirectory(Path directory) throws IOException {
		for (int attempt = 1;; attempt++) {
			try {
				deleteTree(directory);
				return;
			}
			catch (IOException ex) {
				if (attempt >= DELETE_ATTEMPTS) {
					throw ex;
				}
			}
			try {
				Thread.sleep(100L * attempt);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new InterruptedIOException("Interrupted while removing " + directory);
			}
		}
	}

	private static void deleteTree(Path root) throws IOException {
		Files.walkFileTree(root, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
				Files.deleteIfExists(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFileFailed(Path file, IOException ex) throws IOException {
				if (ex instanceof NoSuchFileException) {
					return FileVisitResult.CONTINUE;
				}
				throw ex;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path directory, @Nullable IOException ex) throws IOException {
				if (ex != null && !(ex instanceof NoSuchFileException)) {
					throw ex;
				}
				Files.deleteIfExists(directory);
				return FileVisitResult.CONTINUE;
			}

		});
	}

}
