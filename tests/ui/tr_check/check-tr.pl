#!/usr/bin/perl
# Finds user-visible text that bypasses translation: a string literal with words in it passed
# straight to a Qt call that shows text (setText, setToolTip, addAction, new QLabel, QMessageBox,
# ...) instead of through tr() or QCoreApplication::translate().
#
#   check-tr.pl DIR|FILE...          report every such call; exit 1 if there is one
#   check-tr.pl --self-test FILE     the reports must be exactly the lines marked "// expect-raw"
#
# Literals without words ("%1 · %2", "<b>%1</b>", "—") are fine. A call that really shows no
# translatable text can say so with a "// no-tr: why" comment on its line. Only literals passed
# directly count: a literal inside another call (a file name given to QDir::filePath) is data.
use strict;
use warnings;
use File::Find;

my @setters = qw(
  setText setToolTip setStatusTip setWhatsThis setWindowTitle setPlaceholderText setTitle
  setLabelText setSpecialValueText setSuffix setPrefix setHorizontalHeaderLabels
  setVerticalHeaderLabels setTabText setTabToolTip setItemText setApplicationDescription
  addAction addMenu addTab addItem addItems insertItem addToolBar addRow showMessage
  setDisplayText addPositionalArgument
);
my @constructors = qw(
  QAction QLabel QPushButton QCheckBox QRadioButton QGroupBox QDockWidget QMenu QToolButton
  QTableWidgetItem QListWidgetItem QTreeWidgetItem QCommandLineOption
);
my @static_calls = map { "QMessageBox::$_" } qw(about information warning critical question);
my $call = join '|', (map { "(?:\\.|->)\\s*$_" } @setters), (map { "\\bnew\\s+$_" } @constructors),
  (map { "\\b\Q$_\E" } @static_calls), '\bQInputDialog::\w+', '\bQFileDialog::\w+';

# The argument list of the call whose "(" is at $open in $text, with its end position.
sub balanced {
    my ($text, $open) = @_;
    my ($depth, $i, $in_string) = (0, $open, 0);
    for (; $i < length $text; ++$i) {
        my $c = substr $text, $i, 1;
        if ($in_string) {
            if ($c eq '\\') { ++$i; next; }
            $in_string = 0 if $c eq '"';
            next;
        }
        if ($c eq '"') { $in_string = 1; next; }
        ++$depth if $c eq '(';
        if ($c eq ')') { --$depth; return (substr($text, $open + 1, $i - $open - 1), $i) if $depth == 0; }
    }
    return (substr($text, $open + 1), length $text);
}

# The top-level arguments of an argument list (commas inside calls or strings do not split).
sub split_arguments {
    my ($args) = @_;
    my @parts;
    my ($depth, $in_string, $start) = (0, 0, 0);
    for (my $i = 0; $i < length $args; ++$i) {
        my $c = substr $args, $i, 1;
        if ($in_string) {
            if ($c eq '\\') { ++$i; next; }
            $in_string = 0 if $c eq '"';
            next;
        }
        if ($c eq '"') { $in_string = 1; next; }
        ++$depth if $c =~ /[({\[]/;
        --$depth if $c =~ /[)}\]]/;
        if ($c eq ',' && $depth == 0) {
            push @parts, substr($args, $start, $i - $start);
            $start = $i + 1;
        }
    }
    push @parts, substr($args, $start);
    return @parts;
}

# Which arguments of a call are shown to the user; all of them unless listed here. The others
# are file names, option names or item data.
my %shown_arguments = (
    'QFileDialog::getSaveFileName' => [1, 3],
    'QFileDialog::getOpenFileName' => [1, 3],
    'QFileDialog::getOpenFileNames' => [1, 3],
    'QFileDialog::getExistingDirectory' => [1],
    addPositionalArgument => [1],
);

# The literal's text if `argument` is a string literal, bare or wrapped (QStringLiteral("..."),
# QLatin1String("..."), QString::fromUtf8("...")), possibly followed by .arg(...) calls.
sub literal_of {
    my ($argument) = @_;
    return $argument =~ /^\s*(?:(?:QStringLiteral|QLatin1String|QLatin1StringView|QString::fromUtf8|QString::fromLatin1|QString|u)\s*\(\s*)?"((?:[^"\\]|\\.)*)"\s*\)?\s*(?:\.arg\b.*)?$/s
      ? $1 : undef;
}

sub has_words {
    my ($literal) = @_;
    $literal =~ s/\\[nt"\\]/ /g;      # escapes
    $literal =~ s/%L?\d+/ /g;         # QString::arg placeholders
    $literal =~ s/<[^>]*>/ /g;        # HTML tags
    $literal =~ s/&\w+;/ /g;          # HTML entities
    return $literal =~ /\p{L}{2,}/;
}

# [line, code] of each raw user-visible literal in $path.
sub scan_file {
    my ($path) = @_;
    open my $fh, '<:encoding(UTF-8)', $path or die "check-tr: cannot read $path: $!\n";
    my @lines = <$fh>;
    close $fh;
    my $text = join '', @lines;
    # Blank out comments, keeping line breaks so offsets still map to lines.
    $text =~ s{//[^\n]*|/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]/ /g; $c }gse;
    my @found;
    while ($text =~ /((?:$call))\s*(?:<[^>]*>\s*)?\(/g) {
        my ($open, $start, $name) = ($+[0] - 1, $-[0], $1);
        $name =~ s/^(?:\.|->|new)?\s*//;
        my $line = 1 + (substr($text, 0, $start) =~ tr/\n//);
        my ($args) = balanced($text, $open);
        pos($text) = $open + 1;
        next if $lines[$line - 1] =~ m{//\s*no-tr:};
        my @arguments = split_arguments($args);
        my @shown = $shown_arguments{$name} ? @{ $shown_arguments{$name} } : (0 .. $#arguments);
        # addItem(text, data) and insertItem(index, text, data): the last one is data.
        pop @shown if $name =~ /^(?:addItem|insertItem)$/ && @arguments > 1;
        for my $index (@shown) {
            my $literal = defined $arguments[$index] ? literal_of($arguments[$index]) : undef;
            if (defined $literal && has_words($literal)) {
                (my $code = $lines[$line - 1]) =~ s/^\s+|\s+$//g;
                push @found, [$line, $code];
                last;
            }
        }
    }
    return @found;
}

sub sources {
    my @files;
    for my $root (@_) {
        if (-d $root) {
            find({ wanted => sub { push @files, $File::Find::name if /\.(?:cpp|h)$/ }, no_chdir => 1 }, $root);
        } else {
            push @files, $root;
        }
    }
    return sort @files;
}

if (@ARGV == 2 && $ARGV[0] eq '--self-test') {
    my $fixture = $ARGV[1];
    open my $fh, '<', $fixture or die "check-tr: cannot read $fixture: $!\n";
    my (@expected, $n);
    while (<$fh>) { ++$n; push @expected, $n if m{//\s*expect-raw}; }
    close $fh;
    my @got = map { $_->[0] } scan_file($fixture);
    my $want = join ',', @expected;
    my $have = join ',', @got;
    die "check-tr self-test: $fixture has no // expect-raw lines\n" unless @expected;
    if ($want ne $have) {
        print "check-tr self-test FAILED: expected reports on lines $want, got $have\n";
        exit 1;
    }
    print "check-tr self-test: reported exactly lines $have\n";
    exit 0;
}

die "usage: check-tr.pl DIR|FILE... | --self-test FILE\n" unless @ARGV;
my $count = 0;
for my $file (sources(@ARGV)) {
    for my $hit (scan_file($file)) {
        printf "%s:%d: user-visible text without tr(): %s\n", $file, @$hit;
        ++$count;
    }
}
if ($count) {
    print "$count raw user-visible string(s): wrap them in tr() (or mark a line // no-tr: why)\n";
    exit 1;
}
print "check-tr: no raw user-visible strings\n";
