// SPDX-License-Identifier: GPL-2.0
/*
 * sip-idle-report: the decoder sandbox. libtracecmd 1.3 and libtraceevent
 * 1.7 (Debian 12) trust sizes and offsets in the file. Seeded corruptions
 * of real traces made them dereference wild pointers (in
 * kbuffer_load_subbuffer() and in the format parser) and, once, loop for
 * over 20 minutes while growing to 14 GB. The libraries are not ours to
 * fix, so they run in a child process, the decoder (events.c), with limits
 * on its CPU time, its address space and the number of records it may
 * return (SIP_RECORDS_PER_BYTE); it sends the parent the decoded events
 * through a pipe and the parent runs the model. A decoder that dies or
 * hits a limit is a corrupt file, told in one line; the parent never runs
 * library code on the file's bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events.h"
#include "sandbox.h"

/*
 * What the decoder sends: events, and at the end at most one error whose
 * message follows it (len bytes). Then it exits: 0 when the whole file
 * was read, 1 after an error.
 */
enum wire_kind { WIRE_EVENT = 1, WIRE_ERROR };

struct wire {
	uint32_t kind;
	uint32_t len;
	struct sip_event ev;
};

/*
 * A record takes at least 8 bytes in a CPU buffer (a 4-byte header and
 * one 4-byte word of payload), and trace-cmd's zstd or zlib compression of
 * whole pages shrinks real traces 2-10 times: a guest trace of 663 KB
 * held 42041 records, 0.06 per byte. More than 8 records per byte of the
 * file (64 times compression of the smallest records) means that the
 * library is returning the same data again.
 */
#define SIP_RECORDS_PER_BYTE	8

/*
 * The decoder's own limits. CPU time: 10 s plus 1 s per MiB of file, 80
 * times what reading takes here (a 60 MB trace of 3 million events is
 * read and modelled in 0.75 s); --cpu-limit changes it. Address space (not
 * with AddressSanitizer, whose shadow maps terabytes): 2 GiB plus 32
 * bytes per byte of file, for the libraries' page buffers and
 * decompression.
 */
#define SIP_CPU_BASE_S		10
#define SIP_CPU_S_PER_MIB	1
#define SIP_AS_BASE		(2ULL << 30)
#define SIP_AS_PER_BYTE		32

#if defined(__SANITIZE_ADDRESS__)
#define SIP_LIMIT_AS		0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIP_LIMIT_AS		0
#endif
#endif
#ifndef SIP_LIMIT_AS
#define SIP_LIMIT_AS		1
#endif

static int send_event(const struct sip_event *ev, void *arg)
{
	struct wire w = { .kind = WIRE_EVENT, .ev = *ev };

	return fwrite(&w, sizeof(w), 1, (FILE *)arg) == 1 ? 0 : -1;
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { .rlim_cur = soft, .rlim_max = hard };

	/* Only lowers limits: a failure leaves the decoder the parent's. */
	setrlimit(resource, &rl);
}

/* The decoder process: exits 0 (all sent) or 1 (error sent). */
static void __attribute__((noreturn))
decoder(const char *path, off_t size, unsigned int cpu_limit_s, bool window, int fd)
{
	struct sip_decode_opts dopts = {
		.window = window,
		.max_records = (uint64_t)size * SIP_RECORDS_PER_BYTE,
	};
	char err[512];
	FILE *out = fdopen(fd, "w");
	int ret;

	if (!out)
		exit(1);
	if (cpu_limit_s)
		set_limit(RLIMIT_CPU, cpu_limit_s, cpu_limit_s + 5);
	if (SIP_LIMIT_AS)
		set_limit(RLIMIT_AS, SIP_AS_BASE + (rlim_t)size * SIP_AS_PER_BYTE,
			  SIP_AS_BASE + (rlim_t)size * SIP_AS_PER_BYTE);
	ret = sip_decode_trace(path, &dopts, send_event, out, err, sizeof(err));
	if (ret == SIP_DECODE_TOO_MANY)
		snprintf(err, sizeof(err),
			 "%s: more than %d records per byte of file: the event data is corrupt",
			 path, SIP_RECORDS_PER_BYTE);
	else if (ret == SIP_DECODE_SINK_FAILED)
		snprintf(err, sizeof(err), "%s: writing to the analyser: %s", path,
			 strerror(errno));
	if (ret) {
		struct wire w = { .kind = WIRE_ERROR, .len = strlen(err) };

		fwrite(&w, sizeof(w), 1, out);
		fwrite(err, 1, w.len, out);
	}
	if (fclose(out))
		ret = -1;
	exit(ret ? 1 : 0);
}

/**
 * sip_read_trace() - feed every event of a trace.dat to a model
 * @path: the trace
 * @m: the model
 * @o: only the window; the decoder's CPU-time limit (SIP_CPU_LIMIT_DEFAULT:
 *	10 s plus 1 s per MiB of the file)
 * @err: a one-line message on failure
 * @errlen: size of @err
 *
 * The libraries decode the file in a child process (see the top of this
 * file); this process only runs the model.
 *
 * Return: 0, or -1 with @err filled: the file cannot be opened or is not a
 * trace, is corrupt (including: the decoder crashed or hit a limit), has
 * no power:cpu_idle format or no power:cpu_idle event, or the model
 * failed.
 */
int sip_read_trace(const char *path, struct sip_model *m,
		   const struct sip_read_opts *o, char *err, size_t errlen)
{
	bool got_error = false, model_failed = false;
	unsigned int cpu_limit_s;
	struct wire w;
	struct stat st;
	int pipefd[2], status, fd;
	FILE *in;
	pid_t pid;

	/*
	 * Say why a file cannot be read before the decoder tries. The
	 * libraries seek: a FIFO or a device is refused before open() could
	 * block on it.
	 */
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (!st.st_size) {
		snprintf(err, errlen, "%s: empty file", path);
		return -1;
	}

	cpu_limit_s = o->cpu_limit_s;
	if (cpu_limit_s == SIP_CPU_LIMIT_DEFAULT)
		cpu_limit_s = SIP_CPU_BASE_S + SIP_CPU_S_PER_MIB * (unsigned int)(st.st_size >> 20);

	if (pipe(pipefd)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	/* Nothing buffered may be written twice, by the decoder too. */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (!pid) {
		close(pipefd[0]);
		decoder(path, st.st_size, cpu_limit_s, o->window, pipefd[1]);
	}
	close(pipefd[1]);
	in = fdopen(pipefd[0], "r");
	if (!in) {
		snprintf(err, errlen, "fdopen: %s", strerror(errno));
		close(pipefd[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}

	while (fread(&w, sizeof(w), 1, in) == 1) {
		if (w.kind == WIRE_EVENT) {
			if (sip_model_feed(m, &w.ev)) {
				snprintf(err, errlen, "%s: %s", path, strerror(errno));
				model_failed = true;
				kill(pid, SIGKILL);
				break;
			}
			continue;
		}
		if (w.kind == WIRE_ERROR && w.len < errlen) {
			size_t n = fread(err, 1, w.len, in);

			err[n] = 0;
			got_error = n == w.len;
		}
		break;
	}
	fclose(in);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			return -1;
		}
	if (model_failed)
		return -1;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (sig == SIGXCPU)
			snprintf(err, errlen,
				 "%s: decoding used more than %u s of CPU time (a corrupt file can make libtracecmd loop; --cpu-limit changes the limit)",
				 path, cpu_limit_s);
		else if (sig == SIGKILL)
			snprintf(err, errlen,
				 "%s: the decoder was killed (its CPU-time limit, --cpu-limit, or the OOM killer)",
				 path);
		else
			snprintf(err, errlen, "%s: libtracecmd crashed (%s) decoding it: the file is corrupt",
				 path, strsignal(sig));
		return -1;
	}
	if (WEXITSTATUS(status) == 1 && got_error)
		return -1;
	if (WEXITSTATUS(status) || got_error) {
		snprintf(err, errlen, "%s: the decoder exited with status %d", path,
			 WEXITSTATUS(status));
		return -1;
	}
	if (!sip_model_report(m)->idle_events) {
		snprintf(err, errlen, "%s: no power:cpu_idle events recorded", path);
		return -1;
	}
	return 0;
}
