// openloop-floor: the least CPU any client can spend per operation on this
// machine, closed loop and open loop, to judge mongobench's figures by.
//
// Each thread holds one TCP connection to a MongoDB wire-protocol server
// (mongobench server --null) and sends it a pre-encoded OP_MSG ping, then
// reads the reply: no driver, no encoding, no measurement beyond a clock
// read. In the closed loop a thread sends its next ping as soon as the
// reply is in; in the open loop thread t sends ping i at its due time
// (start + (i + t/threads) * threads/rate), sleeping until then with
// clock_nanosleep on an absolute deadline and a timer slack of 1 ns.
// It prints the process's CPU time (user + system) per operation and, for
// the open loop, how late the sends were (schedule lag p50 and p99).
//
//   cc -O2 -o openloop-floor openloop-floor.c -lpthread
//   openloop-floor PORT closed THREADS 0 SECONDS
//   openloop-floor PORT open THREADS RATE SECONDS
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>

static int port, nthreads, seconds, open_loop;
static double rate;
static unsigned char msg[64];
static int msglen;
static long long t0;
static long long *lags;
static long nlags, total_ops;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static long long now_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void put32(unsigned char *p, int v) { memcpy(p, &v, 4); }

// encode writes OP_MSG {ping: 1, $db: "admin"} into msg.
static void encode(void) {
	unsigned char doc[48];
	int n = 4;
	doc[n++] = 0x10; memcpy(doc + n, "ping", 5); n += 5; put32(doc + n, 1); n += 4;
	doc[n++] = 0x02; memcpy(doc + n, "$db", 4); n += 4; put32(doc + n, 6); n += 4;
	memcpy(doc + n, "admin", 6); n += 6;
	doc[n++] = 0;
	put32(doc, n);
	msglen = 16 + 4 + 1 + n;
	put32(msg, msglen); put32(msg + 4, 1); put32(msg + 8, 0); put32(msg + 12, 2013);
	put32(msg + 16, 0); msg[20] = 0;
	memcpy(msg + 21, doc, n);
}

static int dial(void) {
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		perror("openloop-floor: connect");
		exit(2);
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

static void roundtrip(int fd) {
	unsigned char buf[4096];
	int got = 0, want = -1;
	if (write(fd, msg, msglen) != msglen) {
		perror("openloop-floor: write");
		exit(1);
	}
	while (want < 0 || got < want) {
		int r = read(fd, buf + got, sizeof buf - got);
		if (r <= 0) {
			perror("openloop-floor: read");
			exit(1);
		}
		got += r;
		if (want < 0 && got >= 4) memcpy(&want, buf, 4);
	}
}

static void *worker(void *arg) {
	long id = (long)arg, ops = 0, n = 0;
	int fd = dial();
	long long end = t0 + seconds * 1000000000LL;
	double period = open_loop ? 1e9 * nthreads / rate : 0;
	long long *mine = malloc(sizeof(long long) * (long)(open_loop ? seconds * rate / nthreads + 16 : 1));
	prctl(PR_SET_TIMERSLACK, 1);
	for (long i = 0;; i++) {
		if (open_loop) {
			long long due = t0 + (long long)(period * i + period * id / nthreads);
			if (due >= end) break;
			if (now_ns() < due) {
				struct timespec ts = {due / 1000000000LL, due % 1000000000LL};
				clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			}
			mine[n++] = now_ns() - due;
		} else if (now_ns() >= end) {
			break;
		}
		roundtrip(fd);
		ops++;
	}
	pthread_mutex_lock(&mu);
	total_ops += ops;
	memcpy(lags + nlags, mine, n * sizeof(long long));
	nlags += n;
	pthread_mutex_unlock(&mu);
	free(mine);
	close(fd);
	return NULL;
}

static int cmp(const void *a, const void *b) {
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
	if (argc != 6 || (strcmp(argv[2], "closed") && strcmp(argv[2], "open"))) {
		fprintf(stderr, "usage: openloop-floor PORT closed|open THREADS RATE SECONDS\n");
		return 2;
	}
	port = atoi(argv[1]);
	open_loop = !strcmp(argv[2], "open");
	nthreads = atoi(argv[3]);
	rate = atof(argv[4]);
	seconds = atoi(argv[5]);
	if (port <= 0 || nthreads <= 0 || nthreads > 1024 || seconds <= 0 || (open_loop && rate <= 0)) {
		fprintf(stderr, "openloop-floor: need a port, 1 to 1024 threads, a positive rate (open) and seconds\n");
		return 2;
	}
	encode();
	lags = malloc(sizeof(long long) * (long)(open_loop ? seconds * rate + 16 * nthreads : 1));
	pthread_t th[1024];
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	t0 = now_ns() + 20000000;
	for (long i = 0; i < nthreads; i++) pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
	getrusage(RUSAGE_SELF, &r1);
	double user = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) * 1e6 + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec);
	double sys = (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e6 + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec);
	printf("%s threads=%d ops=%ld cpu_per_op_us=%.2f", argv[2], nthreads, total_ops, (user + sys) / total_ops);
	if (nlags > 0) {
		qsort(lags, nlags, sizeof(long long), cmp);
		printf(" lag_p50_us=%.1f lag_p99_us=%.1f", lags[nlags / 2] / 1e3, lags[nlags * 99 / 100] / 1e3);
	}
	printf("\n");
	return 0;
}
