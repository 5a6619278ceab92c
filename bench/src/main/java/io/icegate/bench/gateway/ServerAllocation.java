package io.icegate.bench.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Heap bytes a server process has allocated so far, read with {@code jstat -gc}: eden in use plus
 * one eden per young collection. Exact to a few kilobytes per collection when the young
 * generation has a fixed size (run the servers with {@code JAVA_TOOL_OPTIONS="-XX:+UseSerialGC
 * -Xms1g -Xmx1g -Xmn256m"}); with a resizing eden it is an estimate. Unlike CPU time it does not depend on what
 * else the machine is doing, so it is the steadier figure for comparing two builds' work per
 * request. Returns -1 when jstat cannot read the process.
 */
final class ServerAllocation {
  private ServerAllocation() {}

  static long bytes(Process process) {
    Path jstat = Path.of(System.getProperty("java.home"), "bin", "jstat");
    try {
      Process run = new ProcessBuilder(jstat.toString(), "-gc", Long.toString(process.pid()))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (run.waitFor() != 0) {
        return -1;
      }
      // the JVM may print a warning line first (e.g. about JAVA_TOOL_OPTIONS' sizes)
      List<String> lines = Arrays.asList(out.strip().split("\n"));
      String header = lines.stream().filter(l -> l.contains(" EC ") && l.contains(" YGC "))
          .findFirst().orElseThrow();
      List<String> names = Arrays.asList(header.trim().split("\\s+"));
      String[] values = lines.get(lines.size() - 1).trim().split("\\s+");
      double edenCapacityKb = Double.parseDouble(values[names.indexOf("EC")]);
      double edenUsedKb = Double.parseDouble(values[names.indexOf("EU")]);
      long youngCollections = Long.parseLong(values[names.indexOf("YGC")]);
      return (long) ((edenUsedKb + youngCollections * edenCapacityKb) * 1024);
    } catch (IOException | RuntimeException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
