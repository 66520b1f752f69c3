package org.poollab.bench.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The CPU time a database server has used so far, read from {@code /proc/<pid>/stat}
 * (Linux): the server process's user and system time, its reaped children's, and every
 * live descendant's. PostgreSQL runs a process per connection under its postmaster, and a
 * backend that ends (a pool shrinking) moves its time into the postmaster's reaped
 * children's, so the sum only grows; MariaDB's threads are one process's. Ticks of
 * {@link #TICKS_PER_SECOND}, the kernel's USER_HZ, which is 100 on every Linux the JDK
 * runs on (what {@code getconf CLK_TCK} prints).
 */
public final class ServerCpu {

	static final int TICKS_PER_SECOND = 100;

	private ServerCpu() {
	}

	/**
	 * The server's CPU time so far, nanoseconds; empty when it cannot be read (not Linux,
	 * the process gone).
	 */
	public static OptionalLong nanos(ProcessHandle server) {
		OptionalLong own = ticks(server.pid(), true);
		if (own.isEmpty()) {
			return OptionalLong.empty();
		}
		long ticks = own.getAsLong();
		for (ProcessHandle child : server.descendants().toList()) {
			ticks += ticks(child.pid(), false).orElse(0);
		}
		return OptionalLong.of(ticks * (1_000_000_000L / TICKS_PER_SECOND));
	}

	/**
	 * A process's utime + stime, and with {@code reaped} its waited-for children's cutime
	 * + cstime (fields 14 to 17 of {@code proc(5)}).
	 */
	static OptionalLong ticks(long pid, boolean reaped) {
		try {
			String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
			// The command name (field 2) is in parentheses and may hold spaces.
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// fields[0] is field 3 (state): field n is fields[n - 3].
			long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			if (reaped) {
				ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
			}
			return OptionalLong.of(ticks);
		}
		catch (IOException | RuntimeException ex) {
			return OptionalLong.empty();
		}
	}

}
