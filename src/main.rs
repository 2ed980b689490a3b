use clap::Parser;

fn main() {
    let cli = fastframe::cli::Cli::parse();
    std::process::exit(fastframe::cli::main_with(cli));
}
